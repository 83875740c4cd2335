-- bench/http/order_items.lua
--
-- Shared by the wrk scripts: the Order items of bench/common/order_items.h
-- (same keys, same attributes, 250 bytes each by DynamoDB's item-size
-- rules) as DynamoDB JSON, and the headers an AWS SDK sends, with a
-- syntactically valid but fake SigV4 signature (dynarock and dynalite parse
-- it and do not verify it).
--
-- Environment: BENCH_ITEMS (key space, default 20000), BENCH_TABLE
-- (default Orders), BENCH_PER_CUSTOMER (items per partition key, default
-- 4; the Query workload uses 100), BENCH_ACCESS_KEY / BENCH_REGION (the credential scope
-- that selects dynarock's table namespace; default AKIDBENCH / us-east-1).

local M = {}

M.items = tonumber(os.getenv("BENCH_ITEMS") or "20000")
M.table = os.getenv("BENCH_TABLE") or "Orders"
M.per_customer = tonumber(os.getenv("BENCH_PER_CUSTOMER") or "4")
M.customers = math.ceil(M.items / M.per_customer)
local access_key = os.getenv("BENCH_ACCESS_KEY") or "AKIDBENCH"
local region = os.getenv("BENCH_REGION") or "us-east-1"

function M.set_headers(operation)
  wrk.method = "POST"
  wrk.path = "/"
  wrk.headers["Content-Type"] = "application/x-amz-json-1.0"
  wrk.headers["X-Amz-Target"] = "DynamoDB_20120810." .. operation
  wrk.headers["X-Amz-Date"] = "20261121T120000Z"
  wrk.headers["Authorization"] = "AWS4-HMAC-SHA256 Credential=" .. access_key ..
      "/20261121/" .. region .. "/dynamodb/aws4_request, " ..
      "SignedHeaders=content-type;host;x-amz-date;x-amz-target, " ..
      "Signature=" .. string.rep("0123456789abcdef", 4)
end

local floor = math.floor
local statuses = { "OPEN_____", "SHIPPED__", "DELIVERED", "CANCELLED" }

local function keys_of(i)
  local month, day = i % 12 + 1, i % 28 + 1
  local pk = string.format("CUST#%08d", floor(i / M.per_customer))
  local sk = string.format("ORDER#2026-%02d-%02d#%08d", month, day, i)
  return pk, sk, month, day
end

function M.key_json(i)
  local pk, sk = keys_of(i)
  return '{"PK":{"S":"' .. pk .. '"},"SK":{"S":"' .. sk .. '"}}'
end

-- The sales reps an item's Rep names (REP#0000 to REP#0499).
M.reps = 500
local function rep_of(r)
  return string.format("REP#%04d", r)
end

-- Item i in version v (default 0): versions differ in Status, Rep and the
-- hour of OrderDate, the attributes the two-GSI table indexes, and have the
-- same size.
function M.item_json(i, v)
  v = v or 0
  local pk, sk, month, day = keys_of(i)
  local order_date = string.format("2026-%02d-%02dT%02d:%02d:%02dZ", month, day,
                                   (i + v) % 24, i % 60, floor(i / 60) % 60)
  local amount = string.format("%d.%02d", 1000 + i % 9000, 10 * (i % 10) + 1 + i % 9)
  local ship_to = string.format(
      "%05d Warehouse Road, Springfield, IL 627%02d, USA, Dock %03d",
      i % 100000, i % 100, i % 1000)
  ship_to = ship_to .. string.rep(" ", 64 - #ship_to)
  return '{"PK":{"S":"' .. pk .. '"},"SK":{"S":"' .. sk ..
      '"},"OrderDate":{"S":"' .. order_date ..
      '"},"Amount":{"N":"' .. amount ..
      '"},"Quantity":{"N":"' .. tostring(1 + i % 9) ..
      '"},"Rep":{"S":"' .. rep_of((i + 7 * v) % M.reps) ..
      '"},"Status":{"S":"' .. statuses[(i + v) % 4 + 1] ..
      '"},"ShipTo":{"S":"' .. ship_to ..
      '"},"Note":{"S":"' .. string.rep("n", 59) .. '"}}'
end

function M.put_body(i, v)
  return '{"TableName":"' .. M.table .. '","Item":' .. M.item_json(i, v) .. '}'
end

function M.get_body(i)
  return '{"TableName":"' .. M.table .. '","Key":' .. M.key_json(i) .. '}'
end

-- Query of every item of customer c (M.per_customer items).
function M.query_body(c)
  return '{"TableName":"' .. M.table .. '","KeyConditionExpression":"PK = :pk",' ..
      '"ExpressionAttributeValues":{":pk":{"S":"' .. string.format("CUST#%08d", c) .. '"}}}'
end

-- Query of GSI2 (Rep, SK; create_table's two_gsis) for every item of rep r.
function M.index_query_body(r)
  return '{"TableName":"' .. M.table .. '","IndexName":"GSI2",' ..
      '"KeyConditionExpression":"Rep = :rep","ExpressionAttributeValues":' ..
      '{":rep":{"S":"' .. rep_of(r) .. '"}}}'
end

-- Gives each wrk thread an id (its Lua state sees the global `tid`).
local next_tid = 0
function M.setup(thread)
  thread:set("tid", next_tid)
  next_tid = next_tid + 1
end

return M
