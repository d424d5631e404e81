-- error: sandbox-binary-chunk.lua:3: attempt to load a binary chunk (mode is 't')
local f, message = load(string.dump(function() end))
error(message)
