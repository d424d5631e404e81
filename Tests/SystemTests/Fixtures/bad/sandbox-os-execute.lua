-- error: sandbox-os-execute.lua:2: attempt to call a nil value (field 'execute')
os.execute("rm -rf /")
