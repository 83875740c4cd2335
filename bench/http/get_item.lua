-- bench/http/get_item.lua: GetItem of random keys among the first
-- BENCH_ITEMS Order items (preloaded by the driver).
--   wrk -t2 -c16 -d10s -s bench/http/get_item.lua http://127.0.0.1:PORT/
local dir = debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./"
local orders = dofile(dir .. "order_items.lua")

orders.set_headers("GetItem")
setup = orders.setup

function init(args)
  math.randomseed(1 + 7919 * (tid or 0))
end

function request()
  return wrk.format(nil, nil, nil, orders.get_body(math.random(0, orders.items - 1)))
end
