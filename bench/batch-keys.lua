-- wrk script: POST /route with 100 keys per request.
local keys = {}
for k = 0, 99 do keys[#keys + 1] = '"user:' .. k .. '"' end
wrk.method = "POST"
wrk.body = '{"keys":[' .. table.concat(keys, ",") .. ']}'
wrk.headers["Content-Type"] = "application/json"
