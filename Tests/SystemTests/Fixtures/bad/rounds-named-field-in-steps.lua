-- error: rounds-named-field-in-steps.lua:2: rounds: steps must be a list of steps, found a field 'name'
return workout { name = "x", rounds(2, { work(20), name = "A" }) }
