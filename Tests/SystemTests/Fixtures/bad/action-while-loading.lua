-- error: action-while-loading.lua:2: say: only works while the workout runs (call it from a hook or a cue)
say("hello")
return workout { name = "x", work(20) }
