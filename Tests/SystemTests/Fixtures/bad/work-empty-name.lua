-- error: work-empty-name.lua:2: work: name must be a non-empty string, got ""
return workout { name = "x", work(20, "") }
