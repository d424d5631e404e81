-- A long treadmill step, for the tests that stop the belt at the machine.
return workout {
  name = "Treadmill long",
  countdown = 0,
  work{ duration = 60, name = "Run", info = { pace = "5:00/km" } },
  work{ duration = 60, name = "Faster", info = { pace = "4:00/km" } },
}
