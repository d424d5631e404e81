-- error: error-call.lua:2: my own message
error("my own message")
