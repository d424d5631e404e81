-- error: workout-description-control.lua:2: workout: description must be text without control characters, got "first line\nsecond\13line"
return workout { name = "x", description = "first line\nsecond\rline", work(1) }
