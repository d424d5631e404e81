-- error: error-without-position.lua:2: no position
error("no position", 0)
