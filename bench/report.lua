-- Shared by the wrk helpers: counts the answers that are not 200 by status, and prints one
-- machine-readable line at the end of a run, read by rest-reads.sh.
local threads = {}
local counter = 0

function setup(thread)
   thread:set("tid", counter)
   counter = counter + 1
   table.insert(threads, thread)
end

statuses = {}

function response(status, headers, body)
   if status ~= 200 then
      statuses[status] = (statuses[status] or 0) + 1
   end
end

function done(summary, latency, requests)
   local seconds = summary.duration / 1e6
   local errors = summary.errors
   local by_status = {}
   for _, thread in ipairs(threads) do
      for status, n in pairs(thread:get("statuses") or {}) do
         by_status[status] = (by_status[status] or 0) + n
      end
   end
   local other = {}
   for status, n in pairs(by_status) do
      other[#other + 1] = status .. ":" .. n
   end
   io.write(string.format(
      "BENCH_RESULT requests=%d seconds=%.2f rps=%.1f p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f p999_ms=%.2f max_ms=%.2f"
         .. " non2xx=%d connect_err=%d read_err=%d write_err=%d timeouts=%d statuses=%s\n",
      summary.requests, seconds, summary.requests / seconds,
      latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
      latency:percentile(99.9) / 1000, latency.max / 1000,
      errors.status, errors.connect, errors.read, errors.write, errors.timeout,
      #other > 0 and table.concat(other, ",") or "none"))
end
