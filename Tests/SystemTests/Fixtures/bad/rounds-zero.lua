-- error: rounds-zero.lua:3: rounds: count must be a positive integer, got 0
return workout { name = "x",
  rounds(0, { work(20) }) }
