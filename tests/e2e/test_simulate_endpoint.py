"""`dynarock simulate hot-partition --endpoint`: the experiment's schedule in
real time against a served instance, beside the in-process model of the same
inputs (docs/simulate.md, "Against an endpoint"). The endpoint is a
`dynarock serve` the test starts; nothing here reaches AWS."""

import json
import os
import signal
import subprocess
import time

import pytest

from conftest import REGION, DynarockServer, dynarock_bin

KEY, SECRET = "AKIDSIM", "sim/secret+key"

# A short schedule that throttles a single key for real: 10 writes/s of
# 200,000 B (196 WCU each) = 1,960 WCU/s on one partition against its
# 1,000 WCU/s ceiling, for 4 s; 10 suffixed keys spread it over the table's
# 4 partitions. Few requests, so that timing on a busy machine barely moves
# the figures.
SCHEDULE = ["--rate", "10", "--item-bytes", "200000", "--duration", "4",
            "--suffixes", "10", "--max-retries", "2"]
# The agreement the test holds the endpoint run and the model to: items/s
# and consumed WCU within 25 % (the model's clock is exact, the endpoint's
# sends run a few ms late and its requests take real time).
TOLERANCE = 0.25


def env(**extra):
    e = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    e.update({"AWS_ACCESS_KEY_ID": KEY, "AWS_SECRET_ACCESS_KEY": SECRET,
              "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent",
              "AWS_CONFIG_FILE": "/nonexistent"})
    e.update(extra)
    return {k: v for k, v in e.items() if v is not None}


def simulate(url, *args, environment=None, timeout=120):
    return subprocess.run(
        [str(dynarock_bin()), "simulate", "hot-partition", "--endpoint", url,
         "--region", REGION, *map(str, args)],
        capture_output=True, text=True, timeout=timeout, env=environment or env())


def prefixed(server, prefix, key=KEY):
    names = server.client(key=key).list_tables()["TableNames"]
    return [n for n in names if n.startswith(prefix)]


@pytest.fixture(scope="module")
def throttling_server():
    s = DynarockServer("--in-memory", "--throttling", "on")
    yield s
    s.stop()


def test_endpoint_and_model_agree_on_a_short_schedule(throttling_server, tmp_path):
    out = tmp_path / "report.json"
    r = simulate(throttling_server.url, *SCHEDULE, "--clients", "8",
                 "--table-prefix", "agree-", "--json", out, "--csv", tmp_path / "r.csv")
    assert r.returncode == 0, r.stderr
    report = json.loads(out.read_text())
    single, spread = report["scenarios"]
    assert single["name"] == "single-key" and spread["name"] == "suffixed-10"
    for s in (single, spread):
        e, m, ratio = s["endpoint"], s["model"], s["ratio"]
        print(s["name"], "endpoint", e, "model", m, "ratio", ratio)
        assert e["scheduled"] == 40
        assert abs(ratio["items_per_second"] - 1) <= TOLERANCE, s
        assert abs(ratio["consumed_write_units"] - 1) <= TOLERANCE, s
        # Every write the endpoint accepted reported its units: 196 each.
        assert e["consumed_write_units"] == 196 * e["writes"]
        assert e["latency_p99_ms"] >= e["latency_p50_ms"] > 0
    # One key throttles at the partition's ceiling, with DynamoDB's
    # exception and reason, in both; the spread one far less.
    assert single["model"]["throttled"] > 0
    assert single["endpoint"]["throttled"] > 0
    assert single["endpoint"]["throttled_by_exception"] == {
        "ProvisionedThroughputExceededException": single["endpoint"]["throttled"]}
    assert set(single["endpoint"]["throttling_reasons"]) == {
        "TableWriteKeyRangeThroughputExceeded"}
    assert single["endpoint"]["writes"] < spread["endpoint"]["writes"]
    assert "endpoint/model" in r.stdout and "deleted table agree-HotSingleKey" in r.stdout
    assert (tmp_path / "r.csv").read_text().startswith(
        "scenario,keys,measure,endpoint,model,endpoint/model\n")
    assert prefixed(throttling_server, "agree-") == []


def test_dry_run_prints_the_plan_and_its_cost_and_sends_nothing():
    # Nothing listens on port 1: a dry run does not connect.
    r = simulate("http://127.0.0.1:1", *SCHEDULE, "--dry-run", "--table-prefix", "dry-")
    assert r.returncode == 0, r.stderr
    assert "plan: hot-partition against the endpoint, Region us-east-1" in r.stdout
    assert "dry-HotSingleKey dry-HotSuffixed" in r.stdout
    # 2 x 40 writes of 196 WRU = 15,680 WRU x $0.625 per million.
    assert "80 writes (15680 WRU)" in r.stdout
    assert "about $0.009800" in r.stdout
    assert "limit (--max-cost-usd): $1.00: within" in r.stdout


def test_cost_guard_refuses_before_the_first_request(throttling_server):
    r = simulate(throttling_server.url, *SCHEDULE, "--max-cost-usd", "0.005",
                 "--table-prefix", "guarded-")
    assert r.returncode == 1
    assert "would cost about $0.009800 on DynamoDB" in r.stderr
    assert "above --max-cost-usd $0.005000" in r.stderr
    assert prefixed(throttling_server, "guarded-") == []


def test_ctrl_c_deletes_the_tables_and_names_them(throttling_server):
    proc = subprocess.Popen(
        [str(dynarock_bin()), "simulate", "hot-partition", "--endpoint",
         throttling_server.url, "--region", REGION, "--rate", "20",
         "--item-bytes", "1000", "--duration", "120", "--table-prefix", "sigint-"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env())
    # Wait until the run has created its tables and is writing.
    deadline = time.time() + 60
    while time.time() < deadline and len(prefixed(throttling_server, "sigint-")) < 2:
        time.sleep(0.2)
    assert len(prefixed(throttling_server, "sigint-")) == 2
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "deleted table sigint-HotSingleKey" in err
    assert "deleted table sigint-HotSuffixed" in err
    assert "INTERRUPTED" in out
    # DeleteTable was accepted; the tables go once DELETING is over.
    deadline = time.time() + 30
    while time.time() < deadline and prefixed(throttling_server, "sigint-"):
        time.sleep(0.2)
    assert prefixed(throttling_server, "sigint-") == []


def test_an_endpoint_that_never_throttles_is_said_so(start_server):
    s = start_server("--in-memory", "--throttling", "off")
    r = simulate(s.url, "--rate", "5", "--item-bytes", "200000", "--duration", "2",
                 "--suffixes", "4", "--max-retries", "1")
    assert r.returncode == 0, r.stderr
    assert "the endpoint never throttled" in r.stdout


def test_5xx_answers_are_retried_counted_and_reported(start_server, tmp_path):
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"Rules": [{
        "Id": "flaky", "Match": {"Operations": ["PutItem"]},
        "Effect": {"Error": "ServiceUnavailable"},
        "When": {"EveryNth": 4}}]}))
    s = start_server("--in-memory", "--fault-rules", str(rules))
    out = tmp_path / "r.json"
    r = simulate(s.url, "--rate", "10", "--item-bytes", "100", "--duration", "2",
                 "--suffixes", "4", "--json", out)
    assert r.returncode == 0, r.stderr
    report = json.loads(out.read_text())
    assert report["errors"]["retried"]["HTTP 503"] > 0
    assert "endpoint errors retried with backoff: HTTP 503" in r.stdout
    for sc in report["scenarios"]:
        assert sc["endpoint"]["writes"] == 20


def test_unreachable_endpoint_is_a_clean_error():
    r = simulate("http://127.0.0.1:1", "--duration", "1", "--rate", "1")
    assert r.returncode == 1
    assert "ListTables: endpoint http://127.0.0.1:1 unreachable" in r.stderr


def test_requests_are_signed_for_a_strict_server(start_server, tmp_path):
    s = start_server("--in-memory", "--access-key", KEY, "--secret-key", SECRET)
    r = simulate(s.url, "--rate", "5", "--item-bytes", "100", "--duration", "1",
                 "--suffixes", "2", "--table-prefix", "signed-")
    assert r.returncode == 0, r.stderr
    assert "credentials: environment" in r.stdout
    # A wrong secret: the endpoint refuses it, and the error says so.
    r = simulate(s.url, "--rate", "5", "--duration", "1",
                 environment=env(AWS_SECRET_ACCESS_KEY="wrong"))
    assert r.returncode == 1
    assert "InvalidSignatureException" in r.stderr
    assert "refused the credentials from environment" in r.stderr
    # Credentials from a profile of the shared credentials file.
    creds = tmp_path / "credentials"
    creds.write_text(f"[default]\naws_access_key_id = nobody\naws_secret_access_key = x\n"
                     f"[sim]\naws_access_key_id = {KEY}\naws_secret_access_key = {SECRET}\n")
    r = simulate(s.url, "--rate", "5", "--item-bytes", "100", "--duration", "1",
                 "--profile", "sim",
                 environment=env(AWS_ACCESS_KEY_ID=None, AWS_SECRET_ACCESS_KEY=None,
                                 AWS_SHARED_CREDENTIALS_FILE=str(creds)))
    assert r.returncode == 0, r.stderr
    assert "[sim]" in r.stdout



# write-sharding --endpoint: a short sustained read of two GSI2 variants.
# 5,000 orders, all OPEN, of 1,000 B (one WRU each, so that the unsharded
# GSI's single key takes the load at 800 orders/s under its partition's
# 1,000 WCU/s); the readers need 40,000 items/s, about 4,900 RCU/s: the
# unsharded GSI's one key is held to its partition's 3,000 RCU/s, the
# random suffix over 4 keys spreads it. 3 s per variant.
WS_SCHEDULE = ["--orders", "5000", "--open-fraction", "1", "--order-bytes", "1000",
               "--load-rate", "800", "--rate", "40000", "--duration", "3",
               "--variants", "unsharded,random", "--shards", "4"]


def simulate_ws(url, *args, environment=None, timeout=180):
    return subprocess.run(
        [str(dynarock_bin()), "simulate", "write-sharding", "--endpoint", url,
         "--region", REGION, *map(str, args)],
        capture_output=True, text=True, timeout=timeout, env=environment or env())


def test_write_sharding_endpoint_and_model_agree(throttling_server, tmp_path):
    out = tmp_path / "ws.json"
    r = simulate_ws(throttling_server.url, *WS_SCHEDULE, "--clients", "8",
                    "--table-prefix", "wsagree-", "--json", out, "--csv", tmp_path / "ws.csv")
    assert r.returncode == 0, r.stderr
    report = json.loads(out.read_text())
    assert report["experiment"] == "write-sharding"
    assert report["load"]["orders"] == 5000
    runs = {(x["variant"], x["shards"]): x for x in report["runs"]}
    assert set(runs) == {("unsharded", 1), ("random", 4)}
    for key, x in runs.items():
        e, m, ratio = x["endpoint"], x["model"], x["ratio"]
        print(key, "endpoint", {k: v for k, v in e.items() if k != "seconds"},
              "model", m, "ratio", ratio)
        assert abs(ratio["items_per_second"] - 1) <= TOLERANCE, x
        assert abs(ratio["consumed_read_units"] - 1) <= TOLERANCE, x
        assert len(e["seconds"]) == 3
    # One key is held to its partition's ceiling, with DynamoDB's exception
    # and reason, in both; four keys read what the clients need.
    unsharded, sharded = runs[("unsharded", 1)], runs[("random", 4)]
    assert unsharded["model"]["throttled"] > 0
    assert unsharded["endpoint"]["throttled"] > 0
    assert set(unsharded["endpoint"]["throttled_by_exception"]) == {
        "ProvisionedThroughputExceededException"}
    assert "IndexReadKeyRangeThroughputExceeded" in unsharded["endpoint"]["throttling_reasons"]
    assert unsharded["endpoint"]["items_per_second"] < 0.8 * sharded["endpoint"]["items_per_second"]
    assert "endpoint/model" in r.stdout and "deleted table wsagree-Orders" in r.stdout
    assert (tmp_path / "ws.csv").read_text().startswith(
        "variant,N,measure,endpoint,model,endpoint/model\n")
    assert prefixed(throttling_server, "wsagree-") == []


def test_write_sharding_dry_run_and_cost_guard(throttling_server):
    r = simulate_ws("http://127.0.0.1:1", *WS_SCHEDULE, "--dry-run", "--table-prefix", "wsdry-")
    assert r.returncode == 0, r.stderr
    assert "plan: write-sharding against the endpoint, Region us-east-1" in r.stdout
    assert "tables (deleted at the end): wsdry-Orders" in r.stdout
    assert "CreateTable wsdry-Orders with 2 GSI(s)" in r.stdout
    # 5,000 orders of 1 WRU into the table and 2 GSIs: 15,000 WRU.
    assert "(15000 WRU)" in r.stdout
    cost = float(r.stdout.split("cost on DynamoDB: about $")[1].split(" ")[0])
    assert 0.009 < cost < 0.02, r.stdout
    r = simulate_ws(throttling_server.url, *WS_SCHEDULE, "--max-cost-usd", "0.001",
                    "--table-prefix", "wsguard-")
    assert r.returncode == 1
    assert "above --max-cost-usd $0.001000" in r.stderr
    assert prefixed(throttling_server, "wsguard-") == []


def test_write_sharding_ctrl_c_deletes_the_tables(throttling_server):
    proc = subprocess.Popen(
        [str(dynarock_bin()), "simulate", "write-sharding", "--endpoint",
         throttling_server.url, "--region", REGION, "--orders", "2000", "--open-fraction", "1",
         "--load-rate", "500", "--rate", "1000", "--duration", "120",
         "--variants", "unsharded", "--table-prefix", "wssigint-"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env())
    deadline = time.time() + 60
    while time.time() < deadline and not prefixed(throttling_server, "wssigint-"):
        time.sleep(0.2)
    assert prefixed(throttling_server, "wssigint-") == ["wssigint-Orders"]
    time.sleep(6.0)  # the load (4 s) is over: reading
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "deleted table wssigint-Orders" in err
    assert "INTERRUPTED" in out
    assert prefixed(throttling_server, "wssigint-") == []


class TlsTerminator:
    """A TLS front for a plain-HTTP `dynarock serve`, as a proxy in front of
    it would be (README: serve has no TLS): each TLS connection accepted on
    127.0.0.1 gets its own plain connection to the backend, and bytes are
    copied both ways until either side closes. The certificate is
    self-signed for IP 127.0.0.1 (subjectAltName: a client checking an IP
    endpoint matches it against the certificate's IP SANs, not its CN)."""

    def __init__(self, backend_port, certfile, keyfile):
        import socket
        import ssl
        import threading
        self._socket, self._ssl, self._threading = socket, ssl, threading
        self.backend_port = backend_port
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.context.load_cert_chain(certfile, keyfile)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.handshakes = 0
        self.failed_handshakes = 0
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while not self.closed:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            self._threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn):
        try:
            tls = self.context.wrap_socket(conn, server_side=True)
        except (OSError, self._ssl.SSLError):
            self.failed_handshakes += 1
            conn.close()
            return
        self.handshakes += 1
        backend = self._socket.create_connection(("127.0.0.1", self.backend_port))
        done = self._threading.Event()

        def pump(src, dst):
            try:
                while True:
                    data = src.recv(65536)
                    if not data:
                        break
                    dst.sendall(data)
            except OSError:
                pass
            done.set()

        self._threading.Thread(target=pump, args=(backend, tls), daemon=True).start()
        pump(tls, backend)
        done.wait(timeout=5)
        for s in (tls, backend):
            try:
                s.close()
            except OSError:
                pass

    def close(self):
        self.closed = True
        self.listener.close()


@pytest.fixture
def tls_front(throttling_server, tmp_path):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1", "-days", "1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=60)
    port = int(throttling_server.url.rsplit(":", 1)[1])
    front = TlsTerminator(port, str(cert), str(key))
    front.cert = cert
    yield front
    front.close()


# `--endpoint https://...`: the client's TLS (OpenSSL through Boost.Asio)
# against a local terminator, the certificate trusted through AWS_CA_BUNDLE
# as the AWS CLI and SDKs take it; a run in full (tables, writes, report,
# cleanup) goes through it.
def test_https_endpoint_with_a_ca_bundle(throttling_server, tls_front, tmp_path):
    url = f"https://127.0.0.1:{tls_front.port}"
    out = tmp_path / "tls.json"
    r = simulate(url, "--rate", "5", "--item-bytes", "1000", "--duration", "2",
                 "--suffixes", "4", "--clients", "2", "--table-prefix", "tls-", "--json", out,
                 environment=env(AWS_CA_BUNDLE=str(tls_front.cert)))
    assert r.returncode == 0, r.stderr
    report = json.loads(out.read_text())
    assert report["endpoint"]["url"] == url
    for sc in report["scenarios"]:
        assert sc["endpoint"]["writes"] == 10, sc
    assert f"at {url} (Region {REGION}" in r.stdout
    assert "deleted table tls-HotSingleKey" in r.stdout
    assert tls_front.handshakes >= 2  # the control connection and the clients
    assert prefixed(throttling_server, "tls-") == []


# Without the bundle the self-signed certificate is not trusted: the run
# stops at its first request, with the reason, and creates nothing.
def test_https_endpoint_refuses_an_untrusted_certificate(throttling_server, tls_front):
    r = simulate(f"https://127.0.0.1:{tls_front.port}", "--rate", "1", "--duration", "1",
                 "--table-prefix", "untrusted-",
                 environment=env(SSL_CERT_FILE=None, SSL_CERT_DIR=None))
    assert r.returncode == 1
    assert f"ListTables: endpoint https://127.0.0.1:{tls_front.port} unreachable" in r.stderr
    assert "certificate verify failed" in r.stderr, r.stderr
    assert tls_front.handshakes == 0
    assert prefixed(throttling_server, "untrusted-") == []
