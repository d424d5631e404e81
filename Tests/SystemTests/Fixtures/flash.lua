-- A boundary a second into the workout, for the terminal test of the flash (run it
-- slowed down with --speed, so the flash lasts long enough to be captured).
return workout {
  name = "Flash test",
  countdown = 0,
  work(1, "Short"),
  rest(40, "Breathe"),
}
