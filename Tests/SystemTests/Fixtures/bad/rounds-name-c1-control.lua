-- error: rounds-name-c1-control.lua:2: rounds: name must be text without control characters, got "Block\1552J"
return workout { name = "x", rounds(2, { work(1) }, { name = "Block\u{9B}2J" }) }
