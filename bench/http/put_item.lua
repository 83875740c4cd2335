-- bench/http/put_item.lua: PutItem of random Order items among the first
-- BENCH_ITEMS (overwrites of preloaded items, as bench/engine/engine_bench).
-- With BENCH_VERSIONS=2, each put is of a random one of two versions of the
-- item (order_items.lua), so that about half the puts change the attributes
-- a GSI indexes (the two-GSI workload: index entries move, as in use).
--   wrk -t2 -c16 -d10s -s bench/http/put_item.lua http://127.0.0.1:PORT/
local dir = debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./"
local orders = dofile(dir .. "order_items.lua")

orders.set_headers("PutItem")
setup = orders.setup

-- Every request is formatted once, in init, so that wrk spends per request
-- about what it spends on the no-op's fixed request (noop.lua): the load
-- generator shares the machine's cores with the server.
local requests = {}
local versions = tonumber(os.getenv("BENCH_VERSIONS") or "1")
local count = orders.items * versions

function init(args)
  math.randomseed(2 + 7919 * (tid or 0))
  for k = 0, count - 1 do
    requests[k] = wrk.format(nil, nil, nil, orders.put_body(k % orders.items, math.floor(k / orders.items)))
  end
end

function request()
  return requests[math.random(0, count - 1)]
end
