-- error: syntax-error.lua:2: '}' expected near 'work'
return workout { name = "x" work(20) }
