-- error: cue-bad-key.lua:2: segment: a cue's key must be an offset in seconds or "half", got "quarter"
return workout { name = "x", segment { kind = "work", duration = 30, cues = { quarter = "q" } } }
