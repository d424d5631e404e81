-- error: setmetatable-not-a-table.lua:2: bad argument #1 to 'setmetatable' (table expected, got number)
setmetatable(1, {})
