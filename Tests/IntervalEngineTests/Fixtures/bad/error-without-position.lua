-- error: error-without-position.lua: no position
error("no position", 0)
