-- wrk script: GET /route/{key} over 65,536 distinct keys, cycled.
local i = 0
request = function()
  i = (i + 1) % 65536
  return wrk.format("GET", "/route/user%3A" .. i)
end
