-- error: cue-infinite-key.lua:2: segment: a cue's key must be an offset in seconds or "half", got inf
return workout { name = "x", segment { kind = "work", duration = 10, cues = { [math.huge] = "never" } } }
