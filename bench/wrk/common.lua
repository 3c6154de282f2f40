-- Shared by the bench/wrk scenarios (loaded with require): numbers each wrk thread, reads the
-- id files run.py writes, and prints one JSON line in done() that bench/run.py parses.
-- Latencies in microseconds; errors.status counts answers with status >= 400.
local M = {}

local threads = {}

-- Runs in wrk's main Lua state, once per thread, before that thread's init().
function M.setup(thread)
   table.insert(threads, thread)
   thread:set("tid", #threads)
end

-- Reads one id per line: an integer, or a word (other servers' record ids).
function M.read_ids(path)
   local ids = {}
   for line in io.lines(path) do
      local n = tonumber(line) or line:match("^%s*([%w_-]+)%s*$")
      if n then ids[#ids + 1] = n end
   end
   assert(#ids > 0, "no ids in " .. path)
   return ids
end

-- Copies wrk.headers (-H flags and Host): wrk.format replaces them when given a table.
function M.headers(extra)
   local h = {}
   for k, v in pairs(wrk.headers) do h[k] = v end
   for k, v in pairs(extra or {}) do h[k] = v end
   return h
end

function M.seed(tid)
   math.randomseed(os.time() * 1000 + tid * 7919)
end

function M.done(summary, latency, requests)
   local e = summary.errors
   local function p(q) return latency:percentile(q) end
   io.write(string.format(
      'BENCH_JSON {"requests":%d,"duration_us":%d,"bytes":%d,' ..
      '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
      '"latency_us":{"p50":%.1f,"p90":%.1f,"p99":%.1f,"p999":%.1f,"mean":%.1f,"max":%.1f}}\n',
      summary.requests, summary.duration, summary.bytes,
      e.connect, e.read, e.write, e.status, e.timeout,
      p(50), p(90), p(99), p(99.9), latency.mean, latency.max))
end

return M
