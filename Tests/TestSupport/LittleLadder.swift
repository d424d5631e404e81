// A release build compiles every target, this one too: the module is the tests' alone.
#if canImport(XCTest)

/// The bundled `ladder`'s shape, small: rests that shorten from the rest really taken (a
/// hook records it, the generator reads it), then a cool-down after the generator. The
/// follow tests run it as a coach's class; `warmUp` is long enough there for a follower
/// waiting from the start to have joined.
package func littleLadder(countdown: Int, warmUp: Int) -> String {
    """
    local taken = math.huge
    return workout { name = "Little ladder", countdown = \(countdown),
      warmup(\(warmUp), "Warm up"),
      generate(function()
        local rest_time = 4
        for round = 1, 3 do
          coroutine.yield(work(4, "Round " .. round))
          coroutine.yield(rest(rest_time, "Rest " .. round))
          rest_time = math.max(2, math.min(rest_time, taken) - 1)
        end
      end),
      cooldown(4, "Walk it off"),
      on_segment_end = function(seg) if seg.kind == "rest" then taken = math.floor(seg.elapsed) end end,
    }
    """
}
#endif
