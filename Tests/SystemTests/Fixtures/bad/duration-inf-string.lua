-- error: duration-inf-string.lua:2: work: duration "inf" is not a duration (write 90, "90s", "1:30", "2m" or "1h5m")
return workout { name = "x", work("inf") }
