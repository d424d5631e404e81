-- For the stalled-viewer test: 30 one-second segments, each with a 65 KB payload, so
-- that the feed sends about 2 MB, far more than a viewer that stops reading can take
-- (its queue of 256 KiB and the sockets' buffers: 20 KB a segment, 0.6 MB in all, was
-- once taken whole on a loaded machine).
local pad = string.rep("x", 65000)
return workout {
  name = "Stall test",
  countdown = 0,
  rounds(30, { work(1, "Quick", { pad = pad }) }),
}
