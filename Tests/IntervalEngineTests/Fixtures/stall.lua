-- For the stalled-viewer test: 30 one-second segments, each with a 20 KB payload, so
-- that the feed sends about 2 MB, far more than a viewer that stops reading can take.
local pad = string.rep("x", 20000)
return workout {
  name = "Stall test",
  countdown = 0,
  rounds(30, { work(1, "Quick", { pad = pad }) }),
}
