-- boxing.lua: a boxing round timer, 6 rounds of 3 minutes with a minute's rest.
--
--   workout run boxing            (add --voice to hear the round calls)
--   workout plan boxing
--
-- For bag work, pad work or shadow boxing. Like a gym timer: a bell starts each
-- round, the "clapper" warns you ten seconds before the end, and each round has a
-- focus so six rounds don't all feel the same. Change ROUNDS and FOCUS to suit.

local ROUNDS = 6

-- One focus per round, read by the hook below with `seg.round`.
local FOCUS = {
  "Jab only: double it, triple it, move your feet",
  "One-two: snap it back to your guard",
  "Body shots: bend the knees, don't lean",
  "Hooks and uppercuts up close",
  "Defence: slip, roll, and counter",
  "Empty the tank: everything you have",
}

-- The round itself. Written once; `rounds` below repeats this same segment, so its
-- `info` table is shared by all six rounds and `seg.round` tells them apart.
local round = segment {
  kind = "work",
  name = "Round",
  duration = "3:00",
  info = { focus = FOCUS },
  cues = {
    -- A function cue at offset 0 runs as the round starts. The engine rings at every
    -- segment change already; this second ring makes the start of a round "ding-ding".
    [0] = function(seg)
      bell()
      say("Round " .. seg.round)
    end,
    -- The clapper: ten seconds from the end (negative offsets count from the end).
    [-10] = "Ten seconds",
  },
}

return workout {
  name = "Boxing",
  description = ROUNDS .. " x 3:00 rounds, 1:00 rest, 10-second warning",
  countdown = 3,                    -- beeps in the last 3 s: your cue to get off the stool

  prep("0:20", "Gloves on"),
  warmup("3:00", "Jump rope", { tip = "light on the balls of your feet" }),

  -- `rest_between` puts a one-minute rest between rounds, and none after the last.
  rounds(ROUNDS, { round }, { name = "Fight", rest_between = "1m" }),

  cooldown("2:00", "Shadow box and stretch", { tip = "slow and loose, shake out the arms" }),

  on_segment_start = function(seg)
    if seg.name == "Round" then
      local focus = seg.info.focus[seg.round] or "your choice"
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
