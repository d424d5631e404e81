-- error: syntax-unclosed-string.lua:2: unfinished string near '"x, work(20) }'
return workout { name = "x, work(20) }
