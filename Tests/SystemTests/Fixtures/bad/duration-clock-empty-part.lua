-- error: duration-clock-empty-part.lua:2: work: duration "1::30" is not a duration (write 90, "90s", "1:30", "2m" or "1h5m")
return workout { name = "x", work("1::30") }
