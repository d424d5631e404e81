-- Records scores from several hooks, for the history tests: what reaches the history
-- however the session ends.
return workout {
  name = "Scores",
  countdown = 0,
  work(3),
  rest(2),
  on_start = function()
    record("reps", 5)
    record("time", 40, { better = "lower" })
    record("reps", 12)
  end,
  on_finish = function(summary) record("final", summary.segments_done) end,
}
