-- A distance step with a short cap, for a run with no distance source.
return workout {
  name = "Treadmill capped", countdown = 0, warmup(1),
  work{ distance = 400, name = "Rep", cap = 10 },
  rest(1),
}
