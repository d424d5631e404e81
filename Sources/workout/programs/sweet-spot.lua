-- sweet-spot.lua: sweet-spot intervals on a bike, 88-93 % of FTP, the effort a rider
-- can hold for long stretches that builds endurance and threshold without wearing them out.
--
--   workout run sweet-spot
--   workout run sweet-spot --set sets=3 --set minutes=12    a longer session
--   workout export sweet-spot --format icu                  the same for intervals.icu
--
-- With a smart trainer in ERG mode the power targets are held for you (sensors.md);
-- without one, `--set ftp=250` shows them in watts. The plan `sweet-spot-block` (workout
-- week sweet-spot-block) sets `sets` and `minutes` week by week.

local p = params {
  sets = { default = 2, help = "sweet-spot intervals" },
  minutes = { default = 10, help = "minutes of each interval" },
  recovery = { default = "5:00", help = "easy spinning between two intervals" },
}

return workout {
  name = "Sweet spot",
  description = string.format("%d x %d min at 88-93%% FTP", p.sets, p.minutes),

  warmup("10:00", "Warm up", { power = { low = 50, high = 75 }, ramp = true }),
  rounds(p.sets, {
    work(p.minutes * 60, "Sweet spot", { power = { low = 88, high = 93 }, cadence = 90 }),
    rest(p.recovery, "Easy", { power = 55 }),
  }, { name = "Main set", skip_last_rest = true }),
  cooldown("5:00", "Cool down", { power = { low = 60, high = 40 }, ramp = true }),
}
