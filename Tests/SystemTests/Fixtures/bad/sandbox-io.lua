-- error: sandbox-io.lua:2: attempt to index a nil value (global 'io')
io.open("/etc/passwd")
