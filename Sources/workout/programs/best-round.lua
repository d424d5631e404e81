-- best-round.lua: one circuit after another until you quit, each round against your best.
--
--   workout run best-round            press n when you finish a round, q when you are done
--   workout run best-round --set rest=20s --set moves="5 pull-ups, 10 push-ups, 15 squats"
--   workout plan best-round --horizon 6    the first rounds (the workout itself never ends)
--
-- (For a timed AMRAP that counts rounds, see amrap.lua.)
--
-- Each round is one work segment: do the moves, then press n. The time you took is
-- logged, and the next round asks you to beat your best. The rounds and the best round
-- are recorded as scores: `workout history stats` shows your best of each. A round that runs out at the
-- time limit counts too. Rounds come from `generate`, which makes them one at a time as
-- the workout reaches them, for as long as you keep going.

local p = params {
  moves = { default = "10 burpees, 15 squats, 20 sit-ups", help = "what one round is" },
  limit = { default = "5:00", help = "the longest a round may take" },
  rest = { default = "30s", help = "rest between rounds" },
}

-- "2:05" from 125 seconds.
local function clock(seconds)
  return string.format("%d:%02d", seconds // 60, math.floor(seconds % 60))
end

-- What the hook records and the generator reads. The generator runs at each boundary
-- after the hooks, so it always sees the round that just ended.
local log = { rounds = 0, best = nil }

return workout {
  name = "Best round",
  description = "Rounds of " .. p.moves .. " until you quit; each round's time is logged",

  prep(10, "Get ready"),

  -- Never returns: the workout ends when you press q. Each yield is one step. The
  -- round number is the generator's own (so `workout plan` counts too); the best time
  -- comes from the hook, so it is only there in a real run.
  generate(function()
    local round = 0
    while true do
      round = round + 1
      local target = log.best and ("beat " .. clock(log.best)) or "go!"
      coroutine.yield(work(p.limit, "Round " .. round, { moves = p.moves, target = target }))
      coroutine.yield(rest(p.rest))
    end
  end),

  on_segment_start = function(seg)
    if seg.kind == "work" then print(seg.info.moves .. " — " .. seg.info.target) end
  end,

  -- A round ends when you press n (skip) or its time runs out: seg.elapsed is the time taken.
  on_segment_end = function(seg)
    if seg.kind ~= "work" then return end
    log.rounds = log.rounds + 1
    if not log.best or seg.elapsed < log.best then log.best = seg.elapsed end
    print(string.format("Round %d: %s (best %s)", log.rounds, clock(seg.elapsed), clock(log.best)))
    -- Scores for the history: more rounds is better, a shorter best round is better.
    record("rounds", log.rounds)
    record("best round", math.floor(log.best * 10 + 0.5) / 10, { better = "lower" })
  end,

  on_finish = function()
    notify("Best round", log.rounds .. " rounds" .. (log.best and (", best " .. clock(log.best)) or ""))
  end,
}
