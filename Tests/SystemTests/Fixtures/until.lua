-- A rest that lasts until the heart rate is under 120 (at most 20 s).
return workout {
  name = "Until",
  countdown = 0,
  work(1, "Sprint"),
  rest{ name = "Recover", until_hr_below = 120, cap = 20 },
  work(1, "Again"),
}
