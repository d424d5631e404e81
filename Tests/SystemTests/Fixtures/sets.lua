-- For the athlete's tests (issue 26): a set the athlete ends (its cue says when a press
-- counts: after the first second), a rest planned from that moment, a set ended by its cap.
return workout {
  name = "Sets",
  countdown = 0,
  work{ open = true, name = "Set 1", cues = { [1.2] = "ready" } },
  rest(2, "Rest"),
  work{ open = true, name = "Set 2", cap = 3 },
}
