-- error: sandbox-os-remove.lua:2: attempt to call a nil value (field 'remove')
os.remove("/tmp/anything")
