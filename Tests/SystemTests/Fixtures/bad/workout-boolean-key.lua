-- error: workout-boolean-key.lua:2: workout: unexpected key true (expected name, description, countdown, sounds, sound_files, on_start, on_segment_start, on_segment_end, on_pause, on_resume, on_finish, on_tally, on_lap, on_sample)
return workout { name = "x", [true] = 1, work(20) }
