-- tabata.lua: the classic Tabata timer, 3 Tabatas of 8 x (20 s all-out / 10 s rest).
--
--   workout run tabata
--   workout plan tabata           to see every interval
--
-- One Tabata is four minutes: eight rounds of 20 seconds as hard as you can, each
-- followed by 10 seconds of rest. Pick one exercise that uses big muscles (a bike
-- sprint, burpees, jump squats, a rower...) and go all out. This routine does three
-- Tabatas with a minute between them. Change SETS for more or fewer.

local SETS = 3

-- One Tabata: the same two steps, eight times. `skip_last_rest` drops the 10 s rest of
-- the eighth round, since the minute of recovery (or the cool-down) comes next anyway.
local one_tabata = rounds(8, {
  work(20, "All out", { tip = "as hard as you can, every single round" }),
  rest(10),
}, { name = "Tabata", skip_last_rest = true })

-- Counts which Tabata we are in. Hooks see only the innermost block (`seg.round` is
-- the round within the Tabata), so the outer count is kept here in a local.
local set = 0

return workout {
  name = "Tabata",
  description = SETS .. " Tabatas of 8 x 20 s on / 10 s off, a minute between",
  countdown = 3,                              -- three beeps before each change

  prep(10, "Get ready"),

  -- A `rounds` inside a `rounds`: the whole Tabata, SETS times, with a minute of
  -- recovery between two Tabatas (`rest_between` adds none after the last one).
  rounds(SETS, { one_tabata }, { name = "Sets", rest_between = "1:00" }),

  cooldown("2m", "Walk it off", { tip = "keep moving until your breathing settles" }),

  on_segment_start = function(seg)
    if seg.kind == "work" then
      if seg.round == 1 then                    -- the first round of a new Tabata
        set = set + 1
        say("Tabata " .. set .. " of " .. SETS)
        print(seg.info.tip)
      else
        say(seg.round .. " of " .. seg.rounds)  -- "3 of 8": how far in, without looking
      end
      if seg.round == seg.rounds then print("Last one!") end
    elseif seg.block == "Sets" then             -- the minute between two Tabatas
      print("Recover. " .. (SETS - set) .. " to go.")
    end
  end,

  on_finish = function(summary)
    if summary.completed then
      notify("Tabata done", string.format("%d Tabatas, %d s all-out", set, math.floor(summary.work_seconds)))
    end
  end,
}
