-- bench/http/query_items.lua: Query of every item of a random customer
-- (BENCH_PER_CUSTOMER items under one partition key, 100 in
-- run_http_bench.sh: 100 Order items, about 25 KB of item data per answer).
--   BENCH_PER_CUSTOMER=100 wrk -t2 -c16 -d10s -s bench/http/query_items.lua URL
local dir = debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./"
local orders = dofile(dir .. "order_items.lua")

orders.set_headers("Query")
local threads = {}
function setup(thread)
  orders.setup(thread)
  table.insert(threads, thread)
end

-- Formatted once, in init (see get_item.lua).
local requests = {}

function init(args)
  math.randomseed(3 + 7919 * (tid or 0))
  for c = 0, orders.customers - 1 do
    requests[c] = wrk.format(nil, nil, nil, orders.query_body(c))
  end
end

function request()
  return requests[math.random(0, orders.customers - 1)]
end

-- A Query answer must carry every item of the customer: a short page would
-- make the figure meaningless, so it is counted as an error.
short = 0
local count = '"Count":' .. orders.per_customer .. '[,}]'
function response(status, headers, body)
  if status == 200 and not body:find(count) then
    short = short + 1
  end
end

function done(summary, latency, requests)
  local short = 0
  for _, thread in ipairs(threads) do
    short = short + thread:get("short")
  end
  if short > 0 then
    io.write(string.format("query_items: %d short answers\n", short))
  end
end
