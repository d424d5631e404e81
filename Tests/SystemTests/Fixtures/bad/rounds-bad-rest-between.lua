-- error: rounds-bad-rest-between.lua:2: rounds: rest_between "soon" is not a duration (write 90, "90s", "1:30", "2m" or "1h5m")
return workout { name = "x", rounds(2, { work(20) }, { rest_between = "soon" }) }
