-- For the athlete's tests (issue 26): a For Time ended by SIGUSR1 (its cue says when a
-- press counts), a short rest, and an AMRAP whose rounds are counted from outside.
return workout {
  name = "Scored",
  countdown = 0,
  for_time{ name = "Fran", cap = "10m", cues = { [1.2] = "ready" } },
  rest(1, "Breathe"),
  amrap{ duration = 3, name = "AMRAP", cues = { [0.5] = "count" } },
}
