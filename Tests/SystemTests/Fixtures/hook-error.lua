-- A hook that fails on the second segment: reported once, then disabled.
return workout { name = "Hook error", rounds(3, { work(1) }),
  on_segment_start = function(seg)
    if seg.index == 2 then return seg.nothing.here end
  end }
