/// What `workout new NAME` writes: a short routine that runs as it is and shows, in
/// comments, each thing a routine can do, so the first edit is a change, not a blank page.
enum StarterRoutine {
    static func text(name: String) -> String {
        """
        -- \(name).lua: your routine. Run it with `workout run \(name)`.
        --
        --   workout check \(name)              finds mistakes, with the line they are on
        --   workout plan \(name)               lists every segment and the parameters
        --   workout run \(name) --dry-run      runs it all instantly: hooks run, nothing sounds
        --
        -- The whole language, with an example of everything: docs/routines.md in the
        -- workout repository. types/workout.lua beside this file gives your editor
        -- completion and type checks (lua-language-server); .luacheckrc is for luacheck.

        -- Parameters: change them for one run with --set, e.g.
        --   workout run \(name) --set rounds=10 --set work=45s
        -- A duration ("30s", "1:30") comes back as seconds, so p.work is a number.
        local p = params {
          rounds = { default = 8, help = "how many work/rest rounds" },
          work = { default = "30s", help = "each work interval" },
          rest = { default = "15s", help = "the rest after each one" },
        }

        return workout {
          name = "\(name)",
          description = p.rounds .. " rounds of " .. p.work .. " s on, " .. p.rest .. " s off",
          countdown = 3,                 -- beeps in the last 3 seconds of each segment (0: none)

          prep(10, "Get ready"),
          warmup("2:00", "Warm up", { tip = "easy jog in place, arm circles" }),

          -- One round is the steps in the list; `rounds` repeats it. The table after a
          -- name is the segment's payload: hooks get it back as seg.info.
          rounds(p.rounds, {
            work(p.work, "Work", { tip = "steady and strong" }),
            rest(p.rest),
          }, { name = "Main set", skip_last_rest = true }),

          -- The full form, for cues inside a segment: seconds from the start, from the
          -- end (negative), or "half".
          segment {
            kind = "cooldown", duration = "2:00", name = "Stretch",
            cues = { half = "Switch sides", [-10] = "Ten seconds" },
          },

          -- Hooks run as the workout goes. print() shows a line; say() speaks it with --voice.
          on_segment_start = function(seg)
            if seg.kind == "work" then
              say(seg.name .. ", round " .. seg.round .. " of " .. seg.rounds)
            end
            if seg.info and seg.info.tip then print(seg.info.tip) end
          end,

          on_finish = function(summary)
            if summary.completed then notify("Done", "\(name) finished. Well done!") end
          end,
        }

        """
    }
}
