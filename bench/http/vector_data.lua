-- bench/http/vector_data.lua
--
-- Shared by load_vectors.lua and search_vectors.lua (issue 39's HTTP
-- figures, vector_search_bench.sh): 128-dimension vectors drawn as
-- bench/engine/vector/vector_bench.cc draws them, uniform in [-1, 1] or
-- around 100 cluster centres (Gaussian, sigma 0.15; the centres from a
-- fixed seed, so that queries come from the data's distribution), with
-- LuaJIT's generator instead of mt19937 (same distributions, other values).
-- Item i: {pk: "v#%07d" i, vc: clustered vector, vu: uniform vector},
-- numbers written with 6 decimals (float keeps about 7 digits). Item i's
-- vectors depend on i only (the generator is reseeded per item), so every
-- run and every loader writes the same items.

local M = {}
M.dims = 128
M.items = tonumber(os.getenv("BENCH_ITEMS") or "20000")
M.table = os.getenv("BENCH_TABLE") or "Vectors"

local orders = dofile((debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./") ..
                      "order_items.lua")
M.set_headers = orders.set_headers

local random, sqrt, log, cos, pi = math.random, math.sqrt, math.log, math.cos, math.pi
local format, concat = string.format, table.concat

local centres
local function ensure_centres()
  if centres then return end
  math.randomseed(1)
  centres = {}
  for c = 1, 100 do
    local v = {}
    for d = 1, M.dims do v[d] = 2 * random() - 1 end
    centres[c] = v
  end
end

local function gaussian(sigma)
  -- Box-Muller; 1 - random() is in (0, 1].
  return sigma * sqrt(-2 * log(1 - random())) * cos(2 * pi * random())
end

-- A vector as a DynamoDB JSON list of numbers, from the generator's
-- current state.
local parts = {}
local function vector_json(clustered)
  if clustered then
    ensure_centres()
    local c = centres[random(100)]
    for d = 1, M.dims do parts[d] = format('{"N":"%.6f"}', c[d] + gaussian(0.15)) end
  else
    for d = 1, M.dims do parts[d] = format('{"N":"%.6f"}', 2 * random() - 1) end
  end
  return '{"L":[' .. concat(parts, ",", 1, M.dims) .. ']}'
end

function M.put_body(i)
  ensure_centres()
  math.randomseed(1000003 + i)
  local vc = vector_json(true)
  local vu = vector_json(false)
  return format('{"TableName":"%s","Item":{"pk":{"S":"v#%07d"},"vc":%s,"vu":%s}}',
                M.table, i, vc, vu)
end

-- Query j of a data set ("clustered" or "uniform"): drawn like the items,
-- from another stream (seeds not used by any item).
function M.search_body(index, clustered, j, top_k)
  ensure_centres()
  math.randomseed(-1 - j)
  local v = vector_json(clustered)
  return format('{"TableName":"%s","IndexName":"%s","TopK":%d,"SearchVector":%s}',
                M.table, index, top_k, v:sub(6, -2))
end

return M
