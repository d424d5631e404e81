-- error: error-tostring-object.lua: custom error
error(setmetatable({}, { __tostring = function() return "custom error" end }))
