-- bench/http/noop.lua: GET / on dynarock, which answers DynamoDB's health
-- string without parsing a body or calling the engine: the no-op baseline
-- of run_http_bench.sh (what the HTTP layer, the loopback TCP and wrk
-- itself cost per request on this machine, in the same run).
--   wrk -t2 -c16 -d10s -s bench/http/noop.lua http://127.0.0.1:PORT/
wrk.method = "GET"
wrk.path = "/"
