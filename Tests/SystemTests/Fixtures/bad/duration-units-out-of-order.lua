-- error: duration-units-out-of-order.lua:2: work: duration "5s1m" is not a duration (write 90, "90s", "1:30", "2m" or "1h5m")
return workout { name = "x", work("5s1m") }
