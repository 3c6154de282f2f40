-- POST /pets with a new name each time, in a random category. Args: CATEGORY_IDS_FILE.
local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = dir .. "?.lua;" .. package.path
local common = require("common")

setup, done = common.setup, common.done
local categories, headers
local n = 0

function init(args)
   common.seed(tid)
   categories = common.read_ids(args[1])
   headers = common.headers({["Content-Type"] = "application/json"})
end

function request()
   n = n + 1
   local body = string.format('{"name":"bench-%d-%d","categoryId":%d,"status":"available"}',
      tid, n, categories[math.random(#categories)])
   return wrk.format("POST", "/pets", headers, body)
end
