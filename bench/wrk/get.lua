-- GET a path, with "{id}" in it replaced by a random id from a file on each request.
-- Args: PATH_TEMPLATE [IDS_FILE], for example "/pets?ids={id}" ids.txt or "/pets?limit=50".
local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = dir .. "?.lua;" .. package.path
local common = require("common")

setup, done = common.setup, common.done
local template, ids, fixed

function init(args)
   common.seed(tid)
   template = assert(args[1], "usage: get.lua PATH_TEMPLATE [IDS_FILE]")
   if template:find("{id}", 1, true) then
      ids = common.read_ids(assert(args[2], "a template with {id} needs IDS_FILE"))
   else
      fixed = wrk.format("GET", template)
   end
end

function request()
   if fixed then return fixed end
   local path = template:gsub("{id}", tostring(ids[math.random(#ids)]))
   return wrk.format("GET", path)
end
