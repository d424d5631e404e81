-- error: sandbox-require-dotted.lua:2: require: "lib.helpers" is not a module name (write require "name" to load name.lua from the routine's directory)
local m = require("lib.helpers")
