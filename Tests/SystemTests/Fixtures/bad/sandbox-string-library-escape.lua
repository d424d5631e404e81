-- error: sandbox-string-library-escape.lua:3: attempt to index a nil value (local 'io')
local io = getmetatable("").__index.io
io.open("/etc/passwd")
