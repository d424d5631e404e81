-- error: sandbox-loadfile.lua:2: attempt to call a nil value (global 'loadfile')
local f = loadfile("/etc/passwd")
