-- error: rounds-bad-skip-last-rest.lua:2: rounds: skip_last_rest must be true or false, got 1
return workout { name = "x", rounds(2, { work(20) }, { skip_last_rest = 1 }) }
