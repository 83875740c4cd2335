-- bench/http/query_index.lua: Query of GSI2 (Rep, SK) for a random rep, on
-- the two-GSI table of create_table (about 40 items under each of the 500
-- reps with 20,000 items: some 10 KB per answer). Every entry the two-GSI
-- PutItem workload moved before it left a tombstone and an older version in
-- the index, which a Query passes over while they are in the memtable.
--   BENCH_TABLE=OrdersGsi wrk -t2 -c16 -d10s -s bench/http/query_index.lua URL
local dir = debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./"
local orders = dofile(dir .. "order_items.lua")

orders.set_headers("Query")
setup = orders.setup

-- Formatted once, in init (see get_item.lua).
local requests = {}

function init(args)
  math.randomseed(4 + 7919 * (tid or 0))
  for r = 0, orders.reps - 1 do
    requests[r] = wrk.format(nil, nil, nil, orders.index_query_body(r))
  end
end

function request()
  return requests[math.random(0, orders.reps - 1)]
end
