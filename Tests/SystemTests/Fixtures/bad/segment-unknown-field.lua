-- error: segment-unknown-field.lua:2: segment: unknown field 'colour' (expected kind, duration, name, info, cues, on_start, on_end, open, cap, expect, distance, hr, until_hr_below, until_sample)
return workout { name = "x", segment { kind = "work", duration = 30, colour = "red" } }
