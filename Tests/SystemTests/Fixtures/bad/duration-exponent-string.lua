-- error: duration-exponent-string.lua:2: work: duration "1e3" is not a duration (write 90, "90s", "1:30", "2m" or "1h5m")
return workout { name = "x", work("1e3") }
