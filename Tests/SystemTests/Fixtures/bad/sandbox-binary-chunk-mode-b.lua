-- error: sandbox-binary-chunk-mode-b.lua:3: attempt to load a binary chunk (mode is 't')
local f, message = load(string.dump(function() end), "x", "b")
error(message)
