-- bench/http/search_vectors.lua: SearchVectors of BENCH_INDEX (TopK
-- BENCH_TOP_K, default 10) with queries drawn from the index's data set
-- (BENCH_DATA: clustered | uniform; vector_data.lua), a pool of 200
-- queries per thread built before the run, sent in turn. Answers that are
-- not 200, or that hold fewer than TopK results, are counted and reported.
--   BENCH_TABLE=Vectors BENCH_INDEX=byC BENCH_DATA=clustered \
--     wrk -t2 -c8 -d10s -s bench/http/search_vectors.lua URL
local dir = debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./"
local vectors = dofile(dir .. "vector_data.lua")

vectors.set_headers("SearchVectors")

local index = os.getenv("BENCH_INDEX") or "byC"
local clustered = (os.getenv("BENCH_DATA") or "clustered") == "clustered"
local top_k = tonumber(os.getenv("BENCH_TOP_K") or "10")

local threads = {}
local next_tid = 0
function setup(thread)
  thread:set("tid", next_tid)
  next_tid = next_tid + 1
  table.insert(threads, thread)
end

local pool, n
bad = 0  -- globals: done() reads them with t:get
short = 0

function init(args)
  pool = {}
  for j = 1, 200 do
    pool[j] = wrk.format(nil, nil, nil, vectors.search_body(index, clustered, tid * 200 + j, top_k))
  end
  n = 0
end

function request()
  n = n % #pool + 1
  return pool[n]
end

function response(status, headers, body)
  if status ~= 200 then
    bad = bad + 1
    if bad <= 3 then io.stderr:write("search_vectors: " .. status .. " " .. body:sub(1, 300) .. "\n") end
    return
  end
  local _, results = body:gsub('"Score"', "")
  if results < top_k then short = short + 1 end
end

function done(summary, latency, requests)
  local b, s = 0, 0
  for _, t in ipairs(threads) do
    b = b + (t:get("bad") or 0)
    s = s + (t:get("short") or 0)
  end
  io.write(string.format("search_vectors: %d responses, %d not 200, %d short\n", summary.requests, b, s))
end
