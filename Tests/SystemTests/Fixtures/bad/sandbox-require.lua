-- error: sandbox-require.lua:2: require: no module "socket" (looked for socket.lua beside the routine)
local m = require("socket")
