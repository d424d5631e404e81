-- error: duration-unit-twice.lua:2: work: duration "1m2m" is not a duration (write 90, "90s", "1:30", "2m" or "1h5m")
return workout { name = "x", work("1m2m") }
