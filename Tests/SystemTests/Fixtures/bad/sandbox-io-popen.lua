-- error: sandbox-io-popen.lua:2: attempt to index a nil value (global 'io')
io.popen("id")
