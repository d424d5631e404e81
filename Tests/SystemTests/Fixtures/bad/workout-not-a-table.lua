-- error: workout-not-a-table.lua:2: workout: its argument must be a table: workout { name = "…", work(30) }, got "HIIT"
return workout "HIIT"
