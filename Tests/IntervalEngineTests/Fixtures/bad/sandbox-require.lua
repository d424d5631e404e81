-- error: sandbox-require.lua:2: attempt to call a nil value (global 'require')
local m = require("socket")
