-- error: name-control-characters.lua:2: work: name must be text without control characters, got "\27[2JGotcha"
return workout { name = "x", work(20, "\27[2JGotcha") }
