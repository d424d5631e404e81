-- For the --serve tests: a first segment long enough to look at, then one to skip to.
return workout {
  name = "Serve test",
  countdown = 0,
  warmup(40, "Jog in place", { tip = "easy does it" }),
  rounds(2, { work(30, "Squats", { reps = 15 }), rest(10) }, { name = "Legs" }),
  cooldown(20, "Stretch"),
}
