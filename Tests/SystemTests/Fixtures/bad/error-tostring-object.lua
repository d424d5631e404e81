-- error: error-tostring-object.lua:2: custom error
error(setmetatable({}, { __tostring = function() return "custom error" end }))
