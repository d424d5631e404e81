-- error: million-segments.lua:2: workout: unrolls to more than 1000000 segments
return workout { name = "x", rounds(2000, { rounds(1000, { work(1) }) }) }
