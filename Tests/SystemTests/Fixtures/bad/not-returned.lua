-- error: not-returned.lua:2: workout{…} is built but not returned (write `return workout { … }`)
workout { name = "x", work(20) }
