-- error: negative-duration.lua:3: rest: duration must be more than 0 seconds, got -5
return workout { name = "x",
  rest(-5) }
