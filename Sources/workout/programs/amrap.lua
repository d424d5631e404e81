-- amrap.lua: "as many rounds as possible" in a fixed time, the rounds counted as you go.
--
--   workout run amrap                      12 minutes; press r after each round
--   workout run amrap --set minutes=20 --set moves="5 pull-ups, 10 push-ups, 15 squats"
--   workout run amrap --serve              count rounds with the phone's "+1 round"
--
-- The clock counts the minutes down; you do the moves round after round and press r
-- (or "+1 round" on the page of --serve) at the end of each one. A round pressed by
-- mistake comes off with POST /control {"action":"tally","add":-1}. When the time is up,
-- the rounds are recorded as the score `rounds`: `workout history stats` shows your best,
-- and the next AMRAP shows last time's rounds and your best as the target.

local p = params {
  minutes = { default = 12, help = "how long the AMRAP lasts, in minutes" },
  moves = { default = "5 pull-ups, 10 push-ups, 15 squats", help = "what one round is" },
}

-- The target, from this routine's own history: last time's rounds plus one, and the best.
local last, best = history.latest("rounds"), history.best("rounds")
local target = last and string.format("beat %d (best %d)", last, best) or "set your first score"

return workout {
  name = "AMRAP",
  description = string.format("As many rounds as possible of %s in %g minutes", p.moves, p.minutes),

  prep(10, "Get ready"),

  -- A timed work segment that records the `rounds` tally as a score when it ends.
  amrap { minutes = p.minutes, name = "AMRAP " .. p.minutes,
          info = { moves = p.moves, target = target, text = "r after each round" } },

  cooldown("2:00", "Walk it off"),

  on_tally = function(_, name, value)
    if name == "rounds" then print("Round " .. value .. " done") end
  end,

  on_finish = function(summary)
    notify("AMRAP", (summary.scores.rounds or 0) .. " rounds of " .. p.moves)
  end,
}
