-- error: workout-no-name.lua:2: workout: name is missing (e.g. name = "HIIT 20")
return workout { work(20) }
