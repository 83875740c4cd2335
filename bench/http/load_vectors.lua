-- bench/http/load_vectors.lua: PutItem of vector_data.lua's items 0 ..
-- BENCH_ITEMS-1 (two 128-dimension vectors each), each once, on one wrk
-- thread (-t1) and any number of connections; as load_items.lua, it
-- interrupts wrk once every item is acknowledged and reports the answers
-- that were not 200.
--   BENCH_ITEMS=100000 BENCH_TABLE=Vectors wrk -t1 -c8 -d3600s -s bench/http/load_vectors.lua URL
local dir = debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./"
local vectors = dofile(dir .. "vector_data.lua")

vectors.set_headers("PutItem")

local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

local next_i, acked
failed = 0  -- a global: done() reads it with t:get

function init(args)
  next_i = 0
  acked = 0
end

function request()
  -- Past the end (connections still asking), re-put item 0: an idempotent
  -- overwrite.
  local i = next_i < vectors.items and next_i or 0
  next_i = next_i + 1
  return wrk.format(nil, nil, nil, vectors.put_body(i))
end

function response(status, headers, body)
  if status ~= 200 then
    failed = failed + 1
    if failed <= 3 then io.stderr:write("load_vectors: " .. status .. " " .. body:sub(1, 300) .. "\n") end
  end
  acked = acked + 1
  if acked == vectors.items then
    wrk.thread:stop()
    os.execute("(sleep 0.2; kill -INT $PPID) &")
  end
end

function done(summary, latency, requests)
  local failed_total = 0
  for _, t in ipairs(threads) do failed_total = failed_total + (t:get("failed") or 0) end
  io.write(string.format("load_vectors: %d responses, %d not 200\n", summary.requests, failed_total))
end
