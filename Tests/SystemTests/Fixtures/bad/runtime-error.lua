-- error: runtime-error.lua:3: attempt to perform arithmetic on a nil value (local 'n')
local n = nil
return workout { name = "x", work(n + 1) }
