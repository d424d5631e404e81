-- error: sandbox-require-symlink.lua:2: require: outside.lua leads outside the routine's directory
local m = require("outside")
