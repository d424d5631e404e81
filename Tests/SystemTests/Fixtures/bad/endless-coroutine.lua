-- error: endless-coroutine.lua:5: endless-coroutine.lua:3: instruction limit reached (an endless loop?)
local co = coroutine.wrap(function()
  while true do end
end)
co()
