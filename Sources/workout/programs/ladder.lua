-- ladder.lua: work intervals whose rests shorten every round, until a time cap.
--
--   workout run ladder
--   workout run ladder --set cap=20m --set step=10s
--   workout plan ladder               the ladder as planned, if you rest the full time
--
-- 30 s of work, then a rest that starts at 60 s and loses 5 s each round (down to
-- 10 s). Cut a rest short with n and the next one is shorter than what you took: the
-- ladder adapts to you. No round starts that would not fit under the cap; then you
-- cool down. The rounds come from `generate`, which makes each one as the workout
-- reaches it, so it can read what the hooks recorded about the rounds before. The
-- rounds you finish are recorded as a score for `workout history stats`.

local p = params {
  work = "30s",
  rest = { default = "60s", help = "the first rest" },
  step = { default = "5s", help = "how much shorter each rest is" },
  shortest = { default = "10s", help = "the rests stop shortening here" },
  cap = { default = "12m", help = "time for the ladder, warm-up and cool-down not counted" },
}

local taken = math.huge   -- seconds of the last rest as you took it (set by a hook below)
local rounds_done = 0

return workout {
  name = "Ladder",
  description = "Rests shorten each round until the " .. p.cap // 60 .. "-minute cap",

  warmup("2:00", "Warm up"),

  -- `run.elapsed` is the workout time so far (in `plan`, the planned time); the same
  -- table is updated before each step is asked for.
  generate(function(run)
    local start = run.elapsed
    local rest_time = p.rest
    local round = 0
    while run.elapsed - start + p.work + rest_time <= p.cap do
      round = round + 1
      coroutine.yield(work(p.work, "Round " .. round))
      coroutine.yield(rest(rest_time))
      -- Shorten from the rest you really took, if you cut it short.
      rest_time = math.max(p.shortest, math.min(rest_time, taken) - p.step)
    end
  end),

  cooldown("3:00", "Walk it off"),

  on_segment_end = function(seg)
    if seg.kind == "rest" then taken = math.floor(seg.elapsed) end
    if seg.kind == "work" then
      rounds_done = rounds_done + 1
      record("rounds", rounds_done)
    end
  end,

  on_segment_start = function(seg)
    if seg.kind == "rest" then print("Rest " .. seg.duration .. " s") end
  end,
}
