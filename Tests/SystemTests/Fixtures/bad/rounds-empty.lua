-- error: rounds-empty.lua:2: rounds: steps must hold at least one step, got an empty table
return workout { name = "x", rounds(2, {}) }
