-- error: stack-overflow.lua:2: stack overflow
local function down(n) return 1 + down(n + 1) end
return down(1)
