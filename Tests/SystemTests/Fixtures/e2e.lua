-- The end-to-end fixture: the built binary's `--dry-run --json` output for this file
-- is compared event by event with e2e.expected.jsonl.
return workout {
  name = "E2E",
  countdown = 2,
  prep(3, "Get ready"),
  rounds(2, {
    work(5, "Squats", { reps = 10 }),
    rest(2),
  }, { name = "Legs", skip_last_rest = true }),
  segment { kind = "stretch", duration = 4, cues = { half = "switch sides", [-1] = function(seg) print("almost", seg.remaining) end } },
  on_segment_start = function(seg)
    if seg.kind == "work" then
      seg.info.done = (seg.info.done or 0) + 1
      say(seg.name .. " round " .. seg.round)
    end
  end,
  on_finish = function(summary) notify("Done", summary.segments_done .. " segments") end,
}
