-- For the athlete's tests (issue 26): an open set with a cap, a rest that starts when it
-- is done, and an open set without a cap.
return workout {
  name = "Athlete test",
  countdown = 0,
  work{ open = true, name = "Squats", cap = "5m", expect = 40 },
  rest(30, "Rest"),
  work{ open = true, name = "Press" },
}
