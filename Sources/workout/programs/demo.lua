return workout {
  name = "Demo",
  work(3, "Jumping jacks", { reps = 10 }),
  rest(2),
}
