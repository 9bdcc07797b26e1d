-- wrk script: POST /route with 1,000 keys per request, a different set each time
-- (offsets cycle through 65,536 keys).
local offset = 0
request = function()
  local keys = {}
  for k = 0, 999 do keys[#keys + 1] = '"user:' .. ((offset + k) % 65536) .. '"' end
  offset = (offset + 1000) % 65536
  return wrk.format("POST", "/route", {["Content-Type"] = "application/json"},
    '{"keys":[' .. table.concat(keys, ",") .. ']}')
end
