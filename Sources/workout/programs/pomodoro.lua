-- pomodoro.lua: the Pomodoro technique, for work rather than workouts.
--
--   workout run pomodoro --set task="Write the report"
--   workout run pomodoro --set work=50m --set short_break=10m --set pomodoros=2
--
-- Focus for 25 minutes, break for 5; after four, a longer break. A desktop
-- notification marks each change, so the timer can run in a terminal you don't watch.

local p = params {
  task = { default = "Focus", help = "what you are working on (shown and notified)" },
  pomodoros = { default = 4, help = "focus sessions before the long break" },
  work = { default = "25m", help = "one focus session" },
  short_break = { default = "5m", help = "the break between two sessions" },
  long_break = { default = "15m", help = "the break at the end" },
  announce = { default = true, help = "a notification at each change (--set announce=no)" },
}

-- A focus session is its own kind, "focus": any word works as a kind.
local focus = segment {
  kind = "focus", name = p.task, duration = p.work,
  cues = { [-60] = "One minute left: find a place to stop" },
}

local focused = 0             -- seconds of focus so far, kept by the hooks

return workout {
  name = "Pomodoro",
  description = string.format("%d x %g min on %s, %g min breaks", p.pomodoros, p.work / 60, p.task, p.short_break / 60),
  countdown = 0,                -- no beeps in the last seconds: they break concentration

  rounds(p.pomodoros, { focus }, { name = "Pomodoros", rest_between = p.short_break }),
  rest(p.long_break, "Long break", { tip = "stand up, walk, look out of a window" }),

  on_segment_start = function(seg)
    if not p.announce then return end
    if seg.kind == "focus" then
      notify(seg.name, string.format("Pomodoro %d of %d: %d minutes", seg.round, seg.rounds, seg.duration // 60))
    else
      notify(seg.name, (seg.info and seg.info.tip) or "Step away from the screen")
    end
  end,

  -- "focus" is not "work", so summary.work_seconds stays 0: count focus time here.
  on_segment_end = function(seg)
    if seg.kind == "focus" then focused = focused + seg.elapsed end
  end,

  on_finish = function()
    notify("Pomodoros done", string.format("%d minutes of focus on %s", focused // 60, p.task))
  end,
}
