-- bench/http/get_item.lua: GetItem of random keys among the first
-- BENCH_ITEMS Order items (preloaded by the driver).
--   wrk -t2 -c16 -d10s -s bench/http/get_item.lua http://127.0.0.1:PORT/
local dir = debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./"
local orders = dofile(dir .. "order_items.lua")

orders.set_headers("GetItem")
setup = orders.setup

-- Every request is formatted once, in init, so that wrk spends per request
-- about what it spends on the no-op's fixed request (noop.lua): the load
-- generator shares the machine's cores with the server.
local requests = {}

function init(args)
  math.randomseed(1 + 7919 * (tid or 0))
  for i = 0, orders.items - 1 do
    requests[i] = wrk.format(nil, nil, nil, orders.get_body(i))
  end
end

function request()
  return requests[math.random(0, orders.items - 1)]
end
