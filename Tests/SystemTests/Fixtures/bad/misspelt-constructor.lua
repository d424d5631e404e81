-- error: misspelt-constructor.lua:2: attempt to call a nil value (global 'wrok')
return workout { name = "x", wrok(20) }
