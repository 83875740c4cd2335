-- bench/scale/scale_wrk.lua: the scale benchmark's wrk workloads on the
-- items of gen_export.py (bench/http/order_items.lua's Order items, reused
-- here, plus a Pad attribute that makes each about 1 KB). Unlike bench/http's
-- scripts, requests are formatted as they are sent, not all in init: ten
-- million preformatted requests per wrk thread would not fit beside the
-- server. BENCH_OP chooses the workload:
--   get       GetItem of a random item among BENCH_ITEMS;
--   put       PutItem of a random item (an overwrite; half of them in the
--             other version, which moves its GSI entries);
--   query     Query of one random customer (BENCH_PER_CUSTOMER items);
--   gsiquery  Query of GSI2 (Rep, SK) from a random item's SK, Limit 10:
--             a seek to a random place of the index, not the hot head of a
--             rep's 20,000 entries;
--   batch     BatchWriteItem of items BENCH_FIRST .. BENCH_FIRST+BENCH_ITEMS-1,
--             25 a request, each once, then stops wrk (as load_items.lua).
-- Environment as order_items.lua, plus BENCH_OP, PAD_BYTES (771), BENCH_FIRST.
--   BENCH_OP=get BENCH_ITEMS=10000000 BENCH_TABLE=Scale wrk -t2 -c16 -d30s -s bench/scale/scale_wrk.lua URL
local dir = debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./"
local orders = dofile(dir .. "../http/order_items.lua")

local op = os.getenv("BENCH_OP") or "get"
local pad_bytes = tonumber(os.getenv("PAD_BYTES") or "771")
local first = tonumber(os.getenv("BENCH_FIRST") or "0")
local targets = { get = "GetItem", put = "PutItem", query = "Query", gsiquery = "Query",
                  batch = "BatchWriteItem" }
orders.set_headers(targets[op] or error("BENCH_OP: get put query gsiquery batch, not " .. op))

local threads = {}
function setup(thread)
  orders.setup(thread)
  table.insert(threads, thread)
end

-- The pad: a slice of 65,536 pseudo-random letters at an offset of the item's
-- own (gen_export.py's letters differ; only the size matters).
local alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
local pad_source
local function pad_of(i)
  local off = (i * 7919) % (#pad_source - pad_bytes)
  return pad_source:sub(off + 1, off + pad_bytes)
end

local function scale_item(i, v)
  local item = orders.item_json(i, v)
  return item:sub(1, -2) .. ',"Pad":{"S":"' .. pad_of(i) .. '"}}'
end

local next_i, last
failed = 0
short = 0

function init(args)
  math.randomseed(45 + 7919 * (tid or 0))
  local letters = {}
  for k = 1, 65536 do
    local c = math.random(1, #alphabet)
    letters[k] = alphabet:sub(c, c)
  end
  pad_source = table.concat(letters)
  -- batch: the wrk threads split the range (thread t takes every
  -- (t+1)-th block of 25, t from 0).
  next_i = first + 25 * (tid or 0)
  last = first + orders.items - 1
end

local nthreads = tonumber(os.getenv("BENCH_THREADS") or "1")
local done_batches = 0
local my_batches

function request()
  if op == "get" then
    return wrk.format(nil, nil, nil, orders.get_body(math.random(0, orders.items - 1)))
  elseif op == "put" then
    local i = math.random(0, orders.items - 1)
    return wrk.format(nil, nil, nil, '{"TableName":"' .. orders.table .. '","Item":' ..
                      scale_item(i, math.random(0, 1)) .. '}')
  elseif op == "query" then
    return wrk.format(nil, nil, nil, orders.query_body(math.random(0, orders.customers - 1)))
  elseif op == "gsiquery" then
    local i = math.random(0, orders.items - 1)
    local sk = orders.key_json(i):match('"SK":{"S":"([^"]*)"')
    return wrk.format(nil, nil, nil, '{"TableName":"' .. orders.table .. '","IndexName":"GSI2",' ..
        '"KeyConditionExpression":"Rep = :rep AND SK >= :sk","Limit":10,"ExpressionAttributeValues":' ..
        string.format('{":rep":{"S":"REP#%04d"},":sk":{"S":"%s"}}}', i % orders.reps, sk))
  else  -- batch
    local i = next_i
    if i > last then i = first end  -- past the end: idempotent overwrites
    next_i = next_i + 25 * nthreads
    local puts = {}
    for k = i, math.min(i + 24, last) do
      puts[#puts + 1] = '{"PutRequest":{"Item":' .. scale_item(k, 0) .. '}}'
    end
    return wrk.format(nil, nil, nil, '{"RequestItems":{"' .. orders.table .. '":[' ..
                      table.concat(puts, ",") .. ']}}')
  end
end

function response(status, headers, body)
  if status ~= 200 then
    failed = failed + 1
  elseif op == "batch" then
    -- Unprocessed items would be lost items: dynarock with throttling off
    -- returns none, and the count would show it if it did.
    if not body:find('"UnprocessedItems":{}', 1, true) then short = short + 1 end
  elseif op == "query" and not body:find('"Count":' .. orders.per_customer .. '[,}]') then
    short = short + 1
  end
  if op == "batch" then
    my_batches = my_batches or math.ceil(math.ceil(orders.items / 25) / nthreads)
    done_batches = done_batches + 1
    if done_batches == my_batches then
      wrk.thread:stop()
      os.execute("(sleep 0.2; kill -INT $PPID) &")
    end
  end
end

function done(summary, latency, requests)
  local f, s = 0, 0
  for _, t in ipairs(threads) do
    f = f + (t:get("failed") or 0)
    s = s + (t:get("short") or 0)
  end
  io.write(string.format("scale_wrk %s: %d responses, %d not 200, %d short; p50 %.2f ms p99 %.2f ms max %.2f ms\n",
                         op, summary.requests, f, s, latency:percentile(50) / 1000,
                         latency:percentile(99) / 1000, latency.max / 1000))
end
