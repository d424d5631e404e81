-- error: sandbox-package-loadlib.lua:2: attempt to index a nil value (global 'package')
local f = package.loadlib("libc.so.6", "system")
