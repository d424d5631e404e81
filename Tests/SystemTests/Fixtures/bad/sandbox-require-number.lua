-- error: sandbox-require-number.lua:2: require: the module name must be a string such as "helpers", got 42
local m = require(42)
