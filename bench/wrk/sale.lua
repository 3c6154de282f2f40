-- POST /store/sales: a 3-line sale (one unit each of three distinct random stocked pets, all
-- priced at SALE_PRICE by run.py's seeding) paid in cash with change, each with its own
-- Idempotency-Key (run nonce, thread number, counter: never repeated, so nothing is a replay).
-- Args: PET_IDS_FILE RUN_NONCE.
local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = dir .. "?.lua;" .. package.path
local common = require("common")

setup, done = common.setup, common.done
local ids, headers, nonce
local n = 0
local PRICE = 500 -- bench/run.py SALE_PRICE

function init(args)
   common.seed(tid)
   ids = common.read_ids(args[1])
   assert(#ids >= 3, "a 3-line sale needs 3 pets")
   nonce = args[2] or tostring(os.time())
   headers = common.headers({["Content-Type"] = "application/json"})
end

function request()
   n = n + 1
   headers["Idempotency-Key"] = string.format("bench-sale-%s-%d-%d", nonce, tid, n)
   local a = ids[math.random(#ids)]
   local b, c = a, a
   while b == a do b = ids[math.random(#ids)] end
   while c == a or c == b do c = ids[math.random(#ids)] end
   local body = string.format(
      '{"lines":[{"petId":%d,"quantity":1},{"petId":%d,"quantity":1},{"petId":%d,"quantity":1}],' ..
      '"payments":[{"method":"cash","amount":%d}]}', a, b, c, 3 * PRICE + 500)
   return wrk.format("POST", "/store/sales", headers, body)
end
