-- tabata.lua: the classic Tabata timer, 3 Tabatas of 8 x (20 s all-out / 10 s rest).
--
--   workout run tabata
--   workout run tabata --set rounds=4 --set work=30s     a shorter, longer-interval one
--   workout plan tabata           to see every interval and the parameters
--
-- One Tabata is four minutes: eight rounds of 20 seconds as hard as you can, each
-- followed by 10 seconds of rest. Pick one exercise that uses big muscles (a bike
-- sprint, burpees, jump squats, a rower...) and go all out. This routine does three
-- Tabatas with a minute between them.

-- The parameters: each has a default, and `--set NAME=VALUE` changes it for one run.
-- A duration ("20s") comes back as seconds (20), so p.work is a number here.
local p = params {
  rounds = { default = 8, help = "work/rest rounds in one Tabata" },
  sets = { default = 3, help = "how many Tabatas" },
  work = { default = "20s", help = "each all-out interval" },
  rest = { default = "10s", help = "the rest after each one" },
  recovery = { default = "1:00", help = "the rest between two Tabatas" },
}
local SETS = p.sets

-- One Tabata: the same two steps, p.rounds times. `skip_last_rest` drops the rest of
-- the last round, since the recovery (or the cool-down) comes next anyway.
local one_tabata = rounds(p.rounds, {
  work(p.work, "All out", { tip = "as hard as you can, every single round" }),
  rest(p.rest),
}, { name = "Tabata", skip_last_rest = true })

-- Counts which Tabata we are in. Hooks see only the innermost block (`seg.round` is
-- the round within the Tabata), so the outer count is kept here in a local.
local set = 0

return workout {
  name = "Tabata",
  description = string.format("%d Tabatas of %d x %g s on / %g s off", SETS, p.rounds, p.work, p.rest),
  countdown = 3,                              -- three beeps before each change

  prep(10, "Get ready"),

  -- A `rounds` inside a `rounds`: the whole Tabata, SETS times, with a recovery
  -- between two Tabatas (`rest_between` adds none after the last one).
  rounds(SETS, { one_tabata }, { name = "Sets", rest_between = p.recovery }),

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
