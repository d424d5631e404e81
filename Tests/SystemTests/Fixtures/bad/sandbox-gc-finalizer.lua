-- error: sandbox-gc-finalizer.lua:2: setmetatable: __gc is not available to routines (finalizers run outside the instruction limit)
setmetatable({}, { __gc = function() while true do end end })
