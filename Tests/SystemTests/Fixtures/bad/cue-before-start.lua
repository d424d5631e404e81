-- error: cue-before-start.lua:2: segment: the cue at -31 is outside the segment (30 s long)
return workout { name = "x", segment { kind = "work", duration = 30, cues = { [-31] = "early" } } }
