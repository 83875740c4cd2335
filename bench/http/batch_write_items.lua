-- bench/http/batch_write_items.lua: BatchWriteItem of the items of
-- bench/common/two_gsi_table.h (two_gsi_items.py writes the same items as
-- StartBulkPutItems' input), 25 a request, items 0 .. BENCH_ITEMS-1 each
-- written once, as an AWS SDK client would: UnprocessedItems are sent
-- again (the unprocessed part only), a throttled or 5xx answer is sent
-- again whole, each after a backoff (50 ms doubling to 800 ms, reset by a
-- request that wrote everything).
--
-- Run it with one connection per thread (wrk -tC -cC, and BENCH_CLIENTS=C
-- in the environment): a thread then has
-- one request in flight and knows which batch an answer is for. Thread k of
-- C sends batches k, k+C, k+2C ... When every thread is done, the last one
-- appends the time (date +%s.%N) to BENCH_DONE_FILE and interrupts wrk
-- (SIGINT to its parent, as load_items.lua does), so wrk prints at once.
--   BENCH_ITEMS=100000 BENCH_TABLE=Batch BENCH_CLIENTS=16 BENCH_DONE_FILE=/tmp/done \
--     wrk -t16 -c16 -d3600s -s bench/http/batch_write_items.lua URL
-- done() prints: "batch_write_items: R responses, W items written,
-- U items unprocessed (sent again), T throttled answers, E 5xx answers,
-- F other answers".
local dir = debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./"
local orders = dofile(dir .. "order_items.lua")  -- for its headers only

orders.set_headers("BatchWriteItem")

local items = tonumber(os.getenv("BENCH_ITEMS") or "20000")
local table_name = os.getenv("BENCH_TABLE") or "Batch"
local done_file = os.getenv("BENCH_DONE_FILE") or "/tmp/batch_write_items.done"
local per_request = 25
-- wrk's -t (= -c): a thread's setup runs before the next thread exists, so
-- the count comes from the environment.
local clients = tonumber(os.getenv("BENCH_CLIENTS") or "1")
local batches = math.ceil(items / per_request)

local threads = {}
local thread_count = 0
function setup(thread)
  thread:set("tid", thread_count)
  thread_count = thread_count + 1
  table.insert(threads, thread)
end

local function put_request(i)
  return '{"PutRequest":{"Item":{"pk":{"S":"user#' .. (i % 10007) ..
      '"},"sk":{"N":"' .. i .. '"},"g":{"S":"g' .. (i % 97) ..
      '"},"h":{"N":"' .. (i % 1013) .. '"},"payload":{"S":"' ..
      string.rep(string.char(97 + i % 26), 150) .. '"}}}}'
end

local function batch_body(b)
  local parts = {}
  local first = b * per_request
  for i = first, math.min(items, first + per_request) - 1 do
    parts[#parts + 1] = put_request(i)
  end
  return '{"RequestItems":{"' .. table_name .. '":[' .. table.concat(parts, ",") .. ']}}'
end

-- Globals, read by done() with t:get.
responses, written, unprocessed, throttled, server_errors, failed = 0, 0, 0, 0, 0, 0
local stride, next_batch, pending, pending_items, backoff, finished

function init(args)
  stride = clients
  next_batch = tid
  pending = nil       -- the body in flight or to send again
  pending_items = 0   -- its items
  backoff = 0
  finished = false
end

local function count_puts(s)
  local _, n = s:gsub('"PutRequest"', "")
  return n
end

function delay()
  return backoff
end

function request()
  if pending == nil then
    if next_batch >= batches then
      -- Done; keep the connection busy with an empty read until wrk stops.
      return wrk.format("GET", "/", {}, "")
    end
    pending = batch_body(next_batch)
    pending_items = math.min(items, (next_batch + 1) * per_request) - next_batch * per_request
    next_batch = next_batch + stride
  end
  return wrk.format(nil, nil, nil, pending)
end

local function finish()
  finished = true
  wrk.thread:stop()
  -- The last thread to finish records the time and interrupts wrk.
  os.execute("echo $(date +%s.%N) >> '" .. done_file .. "'; " ..
             "if [ $(wc -l < '" .. done_file .. "') -ge " .. stride .. " ]; then " ..
             "(sleep 0.2; kill -INT $PPID) & fi")
end

function response(status, headers, body)
  if finished then return end
  if pending == nil then
    -- The GET / of a thread with nothing left.
    if next_batch >= batches then finish() end
    return
  end
  responses = responses + 1
  if status == 200 then
    local rest = body:match('"UnprocessedItems":(%b{})')
    if rest == nil or rest == "{}" then
      written = written + pending_items
      pending, pending_items, backoff = nil, 0, 0
    else
      local left = count_puts(rest)
      written = written + pending_items - left
      unprocessed = unprocessed + left
      pending = '{"RequestItems":' .. rest .. '}'
      pending_items = left
      backoff = math.min(800, math.max(50, backoff * 2))
    end
  elseif status == 400 and (body:find("ProvisionedThroughputExceeded", 1, true) or
                            body:find("ThrottlingException", 1, true)) then
    throttled = throttled + 1
    backoff = math.min(800, math.max(50, backoff * 2))
  elseif status >= 500 then
    server_errors = server_errors + 1
    backoff = math.min(800, math.max(50, backoff * 2))
  else
    failed = failed + 1
    io.stderr:write("batch_write_items: answer " .. status .. ": " .. body:sub(1, 300) .. "\n")
    pending, pending_items = nil, 0
  end
  if pending == nil and next_batch >= batches then finish() end
end

function done(summary, latency, requests)
  local sums = { responses = 0, written = 0, unprocessed = 0, throttled = 0,
                 server_errors = 0, failed = 0 }
  for _, t in ipairs(threads) do
    for k in pairs(sums) do sums[k] = sums[k] + (t:get(k) or 0) end
  end
  io.write(string.format(
      "batch_write_items: %d responses, %d items written, %d items unprocessed (sent again), " ..
      "%d throttled answers, %d 5xx answers, %d other answers\n",
      sums.responses, sums.written, sums.unprocessed, sums.throttled, sums.server_errors,
      sums.failed))
end
