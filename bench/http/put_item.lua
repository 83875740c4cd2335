-- bench/http/put_item.lua: PutItem of random Order items among the first
-- BENCH_ITEMS (overwrites of preloaded items, as bench/engine/engine_bench).
--   wrk -t2 -c16 -d10s -s bench/http/put_item.lua http://127.0.0.1:PORT/
local dir = debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./"
local orders = dofile(dir .. "order_items.lua")

orders.set_headers("PutItem")
setup = orders.setup

function init(args)
  math.randomseed(2 + 7919 * (tid or 0))
end

function request()
  return wrk.format(nil, nil, nil, orders.put_body(math.random(0, orders.items - 1)))
end
