-- wrk helper: GET the URL given to wrk, with the tenant's key.
-- Usage: wrk ... -s bench/fixed.lua 'http://127.0.0.1:PORT/api/v1/chats/ID/messages?limit=50' -- <api-key>

function init(args)
   wrk.headers["X-API-Key"] = args[1]
   wrk.headers["Accept"] = "application/json"
end

dofile(os.getenv("BENCH_DIR") .. "/report.lua")
