-- boxing.lua: a boxing round timer, 6 rounds of 3 minutes with a minute's rest.
--
--   workout run boxing            (add --voice to hear the round calls)
--   workout run boxing --set rounds=12 --set round=2m --set rest=30s   a sparring drill
--   workout plan boxing
--
-- For bag work, pad work or shadow boxing. Like a gym timer: a bell starts each
-- round, the "clapper" warns you before the end, a bell ends it, and each round has a
-- focus so the rounds don't all feel the same. Change FOCUS to suit.

local p = params {
  rounds = { default = 6, help = "how many rounds" },
  round = { default = "3:00", help = "the length of a round" },
  rest = { default = "1:00", help = "the rest between rounds" },
  warning = { default = "10s", help = "the clapper: this long before the end of a round" },
}
local ROUNDS = p.rounds

-- One focus per round, read by the hook below with `seg.round` (and used again from
-- the top when there are more rounds than lines).
local FOCUS = {
  "Jab only: double it, triple it, move your feet",
  "One-two: snap it back to your guard",
  "Body shots: bend the knees, don't lean",
  "Hooks and uppercuts up close",
  "Defence: slip, roll, and counter",
  "Empty the tank: everything you have",
}

-- The round itself. Written once; `rounds` below repeats this same segment, so its
-- `info` table is shared by all the rounds and `seg.round` tells them apart. The hook
-- below puts each round's focus in it as `text`: the display shows it under the clock.
local round = segment {
  kind = "work",
  name = "Round",
  duration = p.round,
  info = {},
  cues = {
    -- A function cue at offset 0 runs as the round starts. The engine rings at every
    -- segment change already; this second ring makes the start of a round "ding-ding".
    [0] = function(seg)
      bell()
      say("Round " .. seg.round)
    end,
    -- The clapper: p.warning seconds from the end (negative offsets count from the end).
    [-p.warning] = string.format("%g seconds", p.warning),
  },
  -- The segment's own hook: three bells as the round ends, like the gym's bell.
  on_end = function()
    bell(); bell(); bell()
  end,
}

return workout {
  name = "Boxing",
  description = string.format("%d x %d:%02d rounds, %d s rest, %g-second warning",
    ROUNDS, p.round // 60, math.floor(p.round % 60), math.floor(p.rest), p.warning),
  countdown = 3,                    -- beeps in the last 3 s: your cue to get off the stool

  prep("0:20", "Gloves on"),
  warmup("3:00", "Jump rope", { tip = "light on the balls of your feet" }),

  -- `rest_between` puts a rest between rounds, and none after the last.
  rounds(ROUNDS, { round }, { name = "Fight", rest_between = p.rest }),

  cooldown("2:00", "Shadow box and stretch", { tip = "slow and loose, shake out the arms" }),

  on_segment_start = function(seg)
    if seg.name == "Round" then
      local focus = FOCUS[(seg.round - 1) % #FOCUS + 1]
      seg.info.text = focus          -- in view for the whole round; a cue does not replace it
      print(string.format("Round %d of %d: %s", seg.round, seg.rounds, focus))
    elseif seg.block == "Fight" then   -- the rest between two rounds
      print("Rest. Breathe through your nose, hands down, shoulders loose.")
    elseif seg.info and seg.info.tip then
      print(seg.info.tip)
    end
  end,

  on_finish = function(summary)
    if summary.completed then
      notify("Boxing done",
        string.format("%d rounds, %d minutes of work", ROUNDS, math.floor(summary.work_seconds // 60)))
    end
  end,
}
