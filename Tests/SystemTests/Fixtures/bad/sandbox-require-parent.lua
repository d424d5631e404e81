-- error: sandbox-require-parent.lua:2: require: "../secret" is not a module name (write require "name" to load name.lua from the routine's directory)
local secret = require("../secret")
