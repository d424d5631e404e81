-- error: sandbox-gc-placeholder.lua:4: setmetatable: __gc is not available to routines (finalizers run outside the instruction limit)
local mt = {}
rawset(mt, "__gc", true)
setmetatable({}, mt)
