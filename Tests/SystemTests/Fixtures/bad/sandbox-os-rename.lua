-- error: sandbox-os-rename.lua:2: attempt to call a nil value (field 'rename')
os.rename("/tmp/a", "/tmp/b")
