-- error: malformed-duration.lua:2: warmup: duration "five minutes" is not a duration (write 90, "90s", "1:30", "2m" or "1h5m")
return workout { name = "x", warmup("five minutes") }
