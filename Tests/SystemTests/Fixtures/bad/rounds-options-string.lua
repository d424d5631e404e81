-- error: rounds-options-string.lua:2: rounds: options must be a table, got "fast"
return workout { name = "x", rounds(2, { work(20) }, "fast") }
