-- POST /store/orders for one unit of a random stocked pet, each with its own Idempotency-Key
-- (run nonce, thread number, counter: never repeated, so nothing is a replay).
-- Args: PET_IDS_FILE RUN_NONCE.
local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = dir .. "?.lua;" .. package.path
local common = require("common")

setup, done = common.setup, common.done
local ids, headers, nonce
local n = 0

function init(args)
   common.seed(tid)
   ids = common.read_ids(args[1])
   nonce = args[2] or tostring(os.time())
   headers = common.headers({["Content-Type"] = "application/json"})
end

function request()
   n = n + 1
   headers["Idempotency-Key"] = string.format("bench-%s-%d-%d", nonce, tid, n)
   local body = string.format('{"petId":%d,"quantity":1}', ids[math.random(#ids)])
   return wrk.format("POST", "/store/orders", headers, body)
end
