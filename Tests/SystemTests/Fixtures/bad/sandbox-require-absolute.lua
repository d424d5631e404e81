-- error: sandbox-require-absolute.lua:2: require: "/etc/passwd" is not a module name (write require "name" to load name.lua from the routine's directory)
local passwd = require("/etc/passwd")
