-- error: sandbox-io-through-G.lua:2: attempt to index a nil value (field 'io')
local f = _G.io.open("/etc/passwd")
