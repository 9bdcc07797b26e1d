-- wrk script: GET /rings/r-NNN/route/{key} over 65,536 distinct keys, cycled, each request for one
-- of the first RINGS rings (r-000 ..) drawn at random (RINGS=1: r-000 alone; RINGS=0: the ring
-- default's own path /route/{key}, without the prefix). Used by bench/rings.sh.
local rings = tonumber(os.getenv("RINGS") or "100")
local i = 0
math.randomseed(12345)
request = function()
  i = (i + 1) % 65536
  if rings == 0 then
    return wrk.format("GET", "/route/user%3A" .. i)
  end
  return wrk.format("GET", string.format("/rings/r-%03d/route/user%%3A%d", math.random(0, rings - 1), i))
end
