-- error: returns-nil.lua:2: workout{…} is built but not returned (write `return workout { … }`)
workout { name = "x", work(20) }
return nil
