-- A routine with rounds, every target a FIT workout holds, one it does not (pace), an
-- open segment, notes and cues: for FITWorkoutTests, CourseFileTests and the FIT golden file.
return workout {
  name = "Over-unders",
  warmup("10:00", "Spin up", { power = { low = 50, high = 65 }, cadence = 90 }),
  rounds(3, {
    work("3:00", "Over", { watts = 280, cadence = { low = 95, high = 100 } }),
    rest(90, "Easy", { hr = { low = 60, high = 70 }, notes = "Spin easy, drink" }),
  }, { name = "Main set" }),
  work { open = true, name = "Sprint", info = { bpm = { low = 170, high = 185 } } },
  segment { kind = "recovery", duration = 120, name = "Breathe", info = { hr_zone = "Z2", pace = 80 },
            cues = { [0] = "Slow down", [60] = "Halfway" } },
  cooldown("5:00", "Cool down", { zone = "Z1" }),
}

