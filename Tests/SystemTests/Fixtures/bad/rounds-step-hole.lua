-- error: rounds-step-hole.lua:3: rounds: step 2 is nil (is a variable misspelt?)
local typo
return workout { name = "x", rounds(2, { work(20), typo, work(10) }) }
