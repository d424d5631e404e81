-- Three short segments for the notification tests (run at --speed).
return workout {
  name = "Bus test",
  countdown = 0,
  work(2, "Jumps"),
  rest(2, "Breathe"),
  work(2, "Squats"),
}
