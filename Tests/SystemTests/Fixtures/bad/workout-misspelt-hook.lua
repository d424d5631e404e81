-- error: workout-misspelt-hook.lua:2: workout: unknown field 'on_segment_strat' (expected name, description, countdown, sounds, sound_files, on_start, on_segment_start, on_segment_end, on_pause, on_resume, on_finish, on_tally, on_lap, on_sample)
return workout { name = "x", work(20),
  on_segment_strat = function() end }
