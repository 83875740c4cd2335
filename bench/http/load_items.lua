-- bench/http/load_items.lua: PutItem of Order items 0 .. BENCH_ITEMS-1, each
-- once, on one wrk thread (-t1) and any number of connections. Once every
-- item is acknowledged it interrupts wrk (SIGINT to its parent process, so
-- that wrk prints its summary at once instead of sleeping out -d). Non-200
-- answers are counted and reported at the end.
--   BENCH_ITEMS=100000 wrk -t1 -c8 -d600s -s bench/http/load_items.lua URL
local dir = debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./"
local orders = dofile(dir .. "order_items.lua")

orders.set_headers("PutItem")

local threads = {}
function setup(thread)
  orders.setup(thread)
  table.insert(threads, thread)
end

local first, last, next_i, acked
-- A global, not a local: done() reads it from each thread with t:get.
failed = 0

function init(args)
  first = 0
  last = orders.items - 1
  next_i = first
  acked = 0
  failed = 0
end

function request()
  -- Past the end (connections still asking while the last answers are in
  -- flight), re-put the first item: an idempotent overwrite.
  local i = next_i <= last and next_i or first
  next_i = next_i + 1
  return wrk.format(nil, nil, nil, orders.put_body(i))
end

function response(status, headers, body)
  if status ~= 200 then
    failed = failed + 1
  end
  acked = acked + 1
  if acked == last - first + 1 then
    wrk.thread:stop()
    -- Later, once this thread has exited, so that the signal reaches the
    -- main thread, asleep for -d.
    os.execute("(sleep 0.2; kill -INT $PPID) &")
  end
end

function done(summary, latency, requests)
  local failed_total = 0
  for _, t in ipairs(threads) do
    failed_total = failed_total + (t:get("failed") or 0)
  end
  io.write(string.format("load_items: %d responses, %d not 200\n",
                         summary.requests, failed_total))
end
