-- error: rounds-unknown-option.lua:2: rounds: unknown field 'rest_betwen' (expected name, rest_between, skip_last_rest)
return workout { name = "x", rounds(2, { work(20) }, { rest_betwen = 10 }) }
