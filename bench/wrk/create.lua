-- POST /pets with a new name each time, in a random category. Args: CATEGORY_IDS_FILE [PATH]
-- (PATH: where to post instead of /pets, for the other servers the benchmark compares).
local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = dir .. "?.lua;" .. package.path
local common = require("common")

setup, done = common.setup, common.done
local categories, headers, path
local n = 0

function init(args)
   common.seed(tid)
   categories = common.read_ids(args[1])
   path = args[2] or "/pets"
   headers = common.headers({["Content-Type"] = "application/json"})
end

function request()
   n = n + 1
   local body = string.format('{"name":"bench-%d-%d","categoryId":%d,"status":"available"}',
      tid, n, categories[math.random(#categories)])
   return wrk.format("POST", path, headers, body)
end
