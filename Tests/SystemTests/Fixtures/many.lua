-- 1,000 one-second segments, then a long hold: the process-hygiene test runs the
-- first part fast and looks for zombies during the hold.
return workout {
  name = "Many",
  countdown = 0,
  rounds(1000, { work(1, "Quick") }),
  rest("24h", "Hold"),
}
