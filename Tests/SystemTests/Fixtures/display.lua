-- The routine the terminal tests drive under tmux: long enough that nothing ends
-- while a test looks at it.
return workout {
  name = "Display test",
  countdown = 0,
  work(40, "Squats"),
  rest(40, "Breathe"),
  work(40, "Lunges"),
}
