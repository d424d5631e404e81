-- error: cue-outside-segment.lua:2: segment: the cue at 45 is outside the segment (30 s long)
return workout { name = "x", segment { kind = "work", duration = 30, cues = { [45] = "late" } } }
