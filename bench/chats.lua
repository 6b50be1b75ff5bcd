-- wrk helper: GET /api/v1/chats/{id} rotating over the chat ids listed in a file (one per line).
-- Usage: wrk ... -s bench/chats.lua http://127.0.0.1:PORT -- <ids-file> <api-key>
dofile(os.getenv("BENCH_DIR") .. "/report.lua")

-- Each wrk thread starts at a different place in the list so the threads do not ask for the same chat.

local ids = {}
local i = 1

function init(args)
   local file = assert(io.open(args[1], "r"), "cannot open the chat ids file " .. tostring(args[1]))
   for line in file:lines() do
      if #line > 0 then
         ids[#ids + 1] = line
      end
   end
   file:close()
   assert(#ids > 0, "no chat ids in " .. args[1])
   wrk.headers["X-API-Key"] = args[2]
   wrk.headers["Accept"] = "application/json"
   i = ((tid or 0) * 7919) % #ids + 1
end

function request()
   local id = ids[i]
   i = i % #ids + 1
   return wrk.format("GET", "/api/v1/chats/" .. id)
end

-- setup() (which gives each thread its tid), response() and done() are in report.lua
