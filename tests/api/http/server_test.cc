// tests/api/http/server_test.cc
//
// Starts a Server on a free port in this process, with a fake Handler, and
// talks to it over real sockets: well-formed requests with a Beast client,
// and raw bytes for everything a well-behaved client would never send.

#include "api/http/server.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "api/http/content_coding.h"
#include "api/http/protocol.h"

namespace dynarock::api::http {
namespace {

namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;
using namespace std::chrono_literals;

constexpr std::string_view kAuth =
    "AWS4-HMAC-SHA256 Credential=AKID/20250101/us-east-1/dynamodb/"
    "aws4_request, SignedHeaders=host, Signature=00";

class ServerTest : public ::testing::Test {
 protected:
  void StartServer(ServerOptions options = {}) {
    options.host = "127.0.0.1";
    options.port = 0;
    options.threads = 2;
    auto server = Server::Start(
        [this](std::string_view op, std::string_view body,
               const CallerIdentity& caller) {
          calls_.fetch_add(1);
          if (op == "Slow") std::this_thread::sleep_for(slow_);
          Response r;
          r.body = "{\"op\":\"" + std::string(op) + "\",\"key\":\"" +
                   caller.access_key_id +
                   "\",\"len\":" + std::to_string(body.size()) + "}";
          return r;
        },
        options);
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    server_ = std::move(server).value();
    ASSERT_NE(server_->port(), 0);
  }

  tcp::socket Connect() {
    tcp::socket socket(ioc_);
    socket.connect(
        tcp::endpoint(net::ip::make_address("127.0.0.1"), server_->port()));
    return socket;
  }

  static bhttp::request<bhttp::string_body> ApiRequest(std::string_view op,
                                                       std::string body) {
    bhttp::request<bhttp::string_body> req{bhttp::verb::post, "/", 11};
    req.set(bhttp::field::host, "127.0.0.1");
    req.set(bhttp::field::content_type, "application/x-amz-json-1.0");
    req.set("X-Amz-Target", "DynamoDB_20120810." + std::string(op));
    req.set(bhttp::field::authorization, std::string(kAuth));
    req.body() = std::move(body);
    req.prepare_payload();
    return req;
  }

  static bhttp::response<bhttp::string_body> RoundTrip(
      tcp::socket& socket, const bhttp::request<bhttp::string_body>& req) {
    bhttp::write(socket, req);
    beast::flat_buffer buffer;
    bhttp::response<bhttp::string_body> res;
    bhttp::read(socket, buffer, res);
    return res;
  }

  // Sends raw bytes and returns everything the server sends back until it
  // closes the connection (or 5 s pass).
  std::string RawExchange(std::string_view bytes, bool half_close = true) {
    tcp::socket socket = Connect();
    beast::error_code ec;
    net::write(socket, net::buffer(bytes.data(), bytes.size()), ec);
    if (half_close) socket.shutdown(tcp::socket::shutdown_send, ec);
    return ReadUntilClosed(socket);
  }

  static std::string ReadUntilClosed(tcp::socket& socket) {
    struct timeval tv {
      5, 0
    };
    setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv,
               sizeof(tv));
    std::string out;
    char buf[4096];
    beast::error_code ec;
    for (;;) {
      size_t n = socket.read_some(net::buffer(buf), ec);
      out.append(buf, n);
      if (ec) break;
    }
    return out;
  }

  // Polls (up to 5 s) until the server's reserved request bytes are
  // `bytes`; the caller asserts the value after.
  void WaitForInflightBytes(size_t bytes) {
    for (int i = 0; i < 500 && server_->TEST_InflightBytes() != bytes; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }

  // The server still answers a normal request on a new connection.
  void ExpectStillServing() {
    tcp::socket socket = Connect();
    auto res = RoundTrip(socket, ApiRequest("ListTables", "{}"));
    EXPECT_EQ(res.result_int(), 200);
    EXPECT_THAT(res.body(), HasSubstr("\"op\":\"ListTables\""));
  }

  net::io_context ioc_;
  std::unique_ptr<Server> server_;
  std::atomic<int> calls_{0};
  std::chrono::milliseconds slow_{300};
};

TEST_F(ServerTest, AnswersWithProtocolHeaders) {
  StartServer();
  tcp::socket socket = Connect();
  auto res = RoundTrip(socket, ApiRequest("ListTables", "{\"Limit\":1}"));
  EXPECT_EQ(res.result_int(), 200);
  EXPECT_EQ(res.body(), "{\"op\":\"ListTables\",\"key\":\"AKID\",\"len\":11}");
  EXPECT_EQ(res[bhttp::field::content_type], "application/x-amz-json-1.0");
  EXPECT_EQ(std::string(res["x-amz-crc32"]), std::to_string(Crc32(res.body())));
  EXPECT_EQ(res["x-amzn-RequestId"].size(), 52u);
  EXPECT_TRUE(res.keep_alive());
}

TEST_F(ServerTest, KeepsConnectionsAlive) {
  StartServer();
  tcp::socket socket = Connect();
  std::string first_id;
  for (int i = 0; i < 20; ++i) {
    auto res = RoundTrip(socket, ApiRequest("GetItem", "{}"));
    ASSERT_EQ(res.result_int(), 200);
    if (i == 0) first_id = std::string(res["x-amzn-RequestId"]);
    if (i > 0) {
      EXPECT_NE(std::string(res["x-amzn-RequestId"]), first_id);
    }
  }
  EXPECT_EQ(calls_.load(), 20);
  EXPECT_EQ(server_->TEST_OpenConnections(), 1);
}

TEST_F(ServerTest, AnswersPipelinedRequestsInOrder) {
  StartServer();
  std::string one =
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: DynamoDB_20120810.A\r\n"
      "Content-Length: 2\r\n\r\n{}";
  std::string two =
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: DynamoDB_20120810.B\r\n"
      "Connection: close\r\nContent-Length: 2\r\n\r\n{}";
  std::string out = RawExchange(one + two, /*half_close=*/false);
  size_t a = out.find("\"op\":\"A\"");
  size_t b = out.find("\"op\":\"B\"");
  ASSERT_NE(a, std::string::npos) << out;
  ASSERT_NE(b, std::string::npos) << out;
  EXPECT_LT(a, b);
}

TEST_F(ServerTest, ClosesWhenTheClientAsks) {
  StartServer();
  tcp::socket socket = Connect();
  auto req = ApiRequest("ListTables", "{}");
  req.keep_alive(false);
  auto res = RoundTrip(socket, req);
  EXPECT_EQ(res.result_int(), 200);
  EXPECT_FALSE(res.keep_alive());
  EXPECT_EQ(ReadUntilClosed(socket), "");
}

TEST_F(ServerTest, HealthCheck) {
  StartServer();
  std::string out = RawExchange("GET / HTTP/1.1\r\nHost: h:1\r\n\r\n");
  EXPECT_THAT(out, StartsWith("HTTP/1.1 200"));
  EXPECT_THAT(out, HasSubstr("\r\n\r\nhealthy: h:1 "));
  EXPECT_THAT(RawExchange("GET /abc HTTP/1.1\r\nHost: h:1\r\n\r\n"),
              StartsWith("HTTP/1.1 404"));
  EXPECT_EQ(calls_.load(), 0);
}

TEST_F(ServerTest, EveryResponseHasADate) {
  StartServer();
  for (std::string_view request :
       {"GET / HTTP/1.1\r\nHost: h\r\n\r\n",
        "PUT / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: h\r\nContent-Type: "
        "application/x-amz-json-1.0\r\nX-Amz-Target: "
        "DynamoDB_20120810.ListTables\r\nContent-Length: 2\r\n\r\n{}"}) {
    std::string out = RawExchange(request);
    // "Date: Tue, 01 Dec 2026 19:30:00 GMT"
    const size_t at = out.find("\r\nDate: ");
    ASSERT_NE(at, std::string::npos) << request;
    const std::string date = out.substr(at + 8, out.find("\r\n", at + 2) - at - 8);
    EXPECT_EQ(date.size(), 29u) << date;
    EXPECT_EQ(date.substr(3, 2), ", ") << date;
    EXPECT_EQ(date.substr(25), " GMT") << date;
  }
}

TEST_F(ServerTest, HeadersOver16KBAreRefusedByDefault) {
  StartServer();
  const std::string head =
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0"
      "\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\nContent-Length: 2\r\n";
  EXPECT_THAT(RawExchange(head + "H: " + std::string(15000, 'a') + "\r\n\r\n{}"),
              StartsWith("HTTP/1.1 200"));
  EXPECT_THAT(RawExchange(head + "H: " + std::string(17000, 'a') + "\r\n\r\n{}"),
              StartsWith("HTTP/1.1 400"));
  EXPECT_THAT(RawExchange("POST /" + std::string(17000, 'x') + " HTTP/1.1\r\n" +
                          head.substr(head.find("\r\n") + 2) + "\r\n{}"),
              StartsWith("HTTP/1.1 400"));
}

TEST_F(ServerTest, LargeAnswersAreChunkedToHttp11Clients) {
  const std::string big(kChunkedResponseBytes + 10, 'z');
  ServerOptions options;
  options.host = "127.0.0.1";
  options.port = 0;
  options.threads = 1;
  auto server = Server::Start(
      [&](std::string_view, std::string_view, const CallerIdentity&) {
        Response r;
        r.body = big;
        return r;
      },
      options);
  ASSERT_TRUE(server.ok());
  const std::string request =
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0"
      "\r\nX-Amz-Target: DynamoDB_20120810.Query\r\nContent-Length: 2\r\n"
      "Connection: close\r\n\r\n{}";
  tcp::socket socket(ioc_);
  socket.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"),
                               (*server)->port()));
  net::write(socket, net::buffer(request));
  std::string out = ReadUntilClosed(socket);
  EXPECT_THAT(out, HasSubstr("\r\nTransfer-Encoding: chunked\r\n"));
  EXPECT_THAT(out, Not(HasSubstr("Content-Length")));
  char size_line[32];
  std::snprintf(size_line, sizeof(size_line), "\r\n\r\n%zx\r\n", big.size());
  EXPECT_THAT(out, HasSubstr(size_line + big + "\r\n0\r\n\r\n"));
  // Beast's parser reads it as one body.
  tcp::socket socket2(ioc_);
  socket2.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"),
                                (*server)->port()));
  auto res = RoundTrip(socket2, ApiRequest("Query", "{}"));
  EXPECT_EQ(res.body(), big);
}

TEST_F(ServerTest, PayloadTooLargeIsChunked) {
  ServerOptions options;
  options.max_body_bytes = 1024;
  StartServer(options);
  std::string out = RawExchange(
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0"
      "\r\nContent-Length: 2000\r\n\r\n" + std::string(2000, ' '));
  EXPECT_THAT(out, StartsWith("HTTP/1.1 413"));
  EXPECT_THAT(out, HasSubstr("\r\nTransfer-Encoding: chunked\r\n"));
  EXPECT_THAT(out, HasSubstr("\r\n\r\n0\r\n\r\n"));
}

TEST_F(ServerTest, CompressedBodiesAreDecodedWithinTheLimits) {
  ServerOptions options;
  options.max_body_bytes = 100 * 1024;
  options.max_inflight_bytes = 1024 * 1024;
  StartServer(options);
  auto compressed = [](std::string_view op, const std::string& json) {
    auto req = ApiRequest(op, *EncodeBody(ContentCoding::kGzip, json));
    req.set(bhttp::field::content_encoding, "gzip");
    req.prepare_payload();
    return req;
  };
  tcp::socket socket = Connect();
  // The handler sees the decoded body (its length is in the answer).
  const std::string json = "{\"a\":\"" + std::string(50000, 'q') + "\"}";
  auto res = RoundTrip(socket, compressed("PutItem", json));
  EXPECT_EQ(res.result_int(), 200);
  EXPECT_THAT(res.body(), HasSubstr("\"len\":" + std::to_string(json.size())));
  // A decoded body past max_body_bytes: 413, and the connection still serves.
  res = RoundTrip(socket, compressed("PutItem", std::string(200 * 1024, ' ')));
  EXPECT_EQ(res.result_int(), 413);
  res = RoundTrip(socket, ApiRequest("ListTables", "{}"));
  EXPECT_EQ(res.result_int(), 200);
  // Broken data: 500.
  auto broken = ApiRequest("PutItem", "{}");
  broken.set(bhttp::field::content_encoding, "gzip");
  EXPECT_EQ(RoundTrip(socket, broken).result_int(), 500);
  EXPECT_EQ(calls_.load(), 2);
  WaitForInflightBytes(0);
  EXPECT_EQ(server_->TEST_InflightBytes(), 0u);
}

TEST_F(ServerTest, DecodedBytesCountAgainstTheInflightBudget) {
  ServerOptions options;
  options.max_body_bytes = 1024 * 1024;
  options.max_inflight_bytes = 64 * 1024;
  StartServer(options);
  tcp::socket socket = Connect();
  auto req = ApiRequest(
      "PutItem", *EncodeBody(ContentCoding::kGzip, std::string(200 * 1024, ' ')));
  req.set(bhttp::field::content_encoding, "gzip");
  req.prepare_payload();
  auto res = RoundTrip(socket, req);
  EXPECT_EQ(res.result_int(), 503);
  EXPECT_THAT(res.body(), HasSubstr("ServiceUnavailable"));
  EXPECT_EQ(calls_.load(), 0);
  WaitForInflightBytes(0);
  EXPECT_EQ(server_->TEST_InflightBytes(), 0u);
}

TEST_F(ServerTest, RejectsTooLargeBodyByContentLength) {
  ServerOptions options;
  options.max_body_bytes = 1024;
  StartServer(options);
  tcp::socket socket = Connect();
  auto res = RoundTrip(socket, ApiRequest("PutItem", std::string(2000, ' ')));
  EXPECT_EQ(res.result_int(), 413);
  EXPECT_FALSE(res.keep_alive());
  EXPECT_EQ(calls_.load(), 0);
  // Exactly the limit is fine.
  tcp::socket socket2 = Connect();
  EXPECT_EQ(RoundTrip(socket2, ApiRequest("PutItem", std::string(1024, ' ')))
                .result_int(),
            200);
}

TEST_F(ServerTest, RejectsTooLargeChunkedBody) {
  ServerOptions options;
  options.max_body_bytes = 1024;
  StartServer(options);
  std::string chunk(600, 'x');
  std::string req =
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: "
      "DynamoDB_20120810.PutItem\r\n"
      "Transfer-Encoding: chunked\r\n\r\n";
  for (int i = 0; i < 3; ++i) req += "258\r\n" + chunk + "\r\n";
  req += "0\r\n\r\n";
  std::string out = RawExchange(req);
  EXPECT_THAT(out, StartsWith("HTTP/1.1 413"));
  EXPECT_EQ(calls_.load(), 0);
}

TEST_F(ServerTest, TheDefaultLimitIs16MB) {
  StartServer();
  tcp::socket socket = Connect();
  auto res = RoundTrip(
      socket,
      ApiRequest("PutItem", std::string(kMaxRequestBodyBytes + 1, ' ')));
  EXPECT_EQ(res.result_int(), 413);
  EXPECT_EQ(calls_.load(), 0);
  ExpectStillServing();
}

TEST_F(ServerTest, SurvivesHugeHeaders) {
  ServerOptions options;
  options.max_header_bytes = 8 * 1024;
  StartServer(options);
  std::string req =
      "POST / HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(100 * 1024, 'a') +
      "\r\n\r\n";
  std::string out = RawExchange(req);
  EXPECT_THAT(out, StartsWith("HTTP/1.1 400"));
  ExpectStillServing();
}

TEST_F(ServerTest, SurvivesGarbage) {
  StartServer();
  std::mt19937 rng(7);
  for (int i = 0; i < 30; ++i) {
    std::string bytes(1 + rng() % 3000, '\0');
    for (char& c : bytes) c = static_cast<char>(rng() & 0xFF);
    if (i % 3 == 0) bytes = "POST / HTTP/1.1\r\n" + bytes;
    std::string out = RawExchange(bytes);
    if (!out.empty()) {
      EXPECT_THAT(out, StartsWith("HTTP/1.1 4")) << i;
    }
  }
  for (std::string_view bad :
       {"\r\n\r\n", "GET\r\n\r\n", "POST / HTTP/9.9\r\n\r\n",
        "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
        "POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n",
        "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "POST / HTTP/1.1\r\nBad Header\r\n\r\n"}) {
    std::string out = RawExchange(bad);
    EXPECT_THAT(out, StartsWith("HTTP/1.1 4")) << bad;
  }
  ExpectStillServing();
}

TEST_F(ServerTest, SurvivesTruncatedBodies) {
  StartServer();
  for (int i = 0; i < 10; ++i) {
    std::string req =
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: DynamoDB_20120810.A\r\n"
        "Content-Length: 100\r\n\r\n{\"TableName\":";
    std::string out = RawExchange(req);  // then half-close: body never ends
    EXPECT_EQ(out, "");
  }
  EXPECT_EQ(calls_.load(), 0);
  ExpectStillServing();
}

TEST_F(ServerTest, ClosesIdleAndSlowConnections) {
  ServerOptions options;
  options.idle_timeout = 200ms;
  options.header_timeout = 200ms;
  options.request_timeout = 200ms;
  StartServer(options);
  auto start = std::chrono::steady_clock::now();
  tcp::socket idle = Connect();
  EXPECT_EQ(ReadUntilClosed(idle), "");
  tcp::socket slow = Connect();
  net::write(slow, net::buffer(std::string_view("POST / HTTP/1.1\r\nHo")));
  EXPECT_EQ(ReadUntilClosed(slow), "");
  tcp::socket slow_body = Connect();
  net::write(slow_body, net::buffer(std::string_view(
                            "POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n{")));
  EXPECT_EQ(ReadUntilClosed(slow_body), "");
  EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
  ExpectStillServing();
}

// A slowloris client keeps sending a byte at a time: the header timeout
// counts from the request's first byte, so it is dropped anyway.
TEST_F(ServerTest, DropsHeadersThatTrickleIn) {
  ServerOptions options;
  options.header_timeout = 300ms;
  StartServer(options);
  tcp::socket slow = Connect();
  const std::string head = "POST / HTTP/1.1\r\nX-Long: " + std::string(200, 'a');
  beast::error_code ec;
  size_t sent = 0;
  for (; sent < head.size() && !ec; ++sent) {
    net::write(slow, net::buffer(head.data() + sent, 1), ec);
    std::this_thread::sleep_for(20ms);
  }
  EXPECT_TRUE(ec) << "still connected after trickling " << sent << " bytes";
  EXPECT_EQ(calls_.load(), 0);
  ExpectStillServing();
}

TEST_F(ServerTest, AnswersServiceUnavailableBeyondMaxConnections) {
  ServerOptions options;
  options.max_connections = 2;
  StartServer(options);
  tcp::socket a = Connect();
  tcp::socket b = Connect();
  // Both are served (and so counted) once they have an answer.
  EXPECT_EQ(RoundTrip(a, ApiRequest("A", "{}")).result_int(), 200);
  EXPECT_EQ(RoundTrip(b, ApiRequest("B", "{}")).result_int(), 200);
  {
    tcp::socket c = Connect();
    auto res = RoundTrip(c, ApiRequest("C", "{}"));
    EXPECT_EQ(res.result_int(), 503);
    EXPECT_FALSE(res.keep_alive());
    EXPECT_THAT(res.body(),
                HasSubstr("\"__type\":\"com.amazonaws.dynamodb.v20120810#"
                          "ServiceUnavailable\""));
    EXPECT_EQ(std::string(res["x-amz-crc32"]),
              std::to_string(Crc32(res.body())));
  }
  EXPECT_EQ(calls_.load(), 2);
  a.close();
  // Once the server has seen the close, a new connection is served.
  for (int i = 0; i < 500 && server_->TEST_OpenConnections() > 1; ++i) {
    std::this_thread::sleep_for(10ms);
  }
  ExpectStillServing();
}

TEST_F(ServerTest, BoundsRequestBytesInFlight) {
  ServerOptions options;
  options.max_inflight_bytes = 1000;
  StartServer(options);
  const std::string head =
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: DynamoDB_20120810.A\r\n";
  // One request holds 600 bytes while its body arrives.
  tcp::socket holder = Connect();
  net::write(holder, net::buffer(head + "Content-Length: 600\r\n\r\n{"));
  for (int i = 0; i < 500 && server_->TEST_InflightBytes() == 0; ++i) {
    std::this_thread::sleep_for(10ms);
  }
  EXPECT_EQ(server_->TEST_InflightBytes(), 600u);
  // Another 600 would pass the limit: 503 before its body is read.
  std::string out = RawExchange(head + "Content-Length: 600\r\n\r\n",
                                /*half_close=*/false);
  EXPECT_THAT(out, StartsWith("HTTP/1.1 503"));
  EXPECT_THAT(out, HasSubstr("ServiceUnavailable"));
  // A chunked body is reserved as it grows.
  std::string chunked = head + "Transfer-Encoding: chunked\r\n\r\n";
  for (int i = 0; i < 10; ++i) chunked += "64\r\n" + std::string(100, 'x') + "\r\n";
  chunked += "0\r\n\r\n";
  out = RawExchange(chunked, /*half_close=*/false);
  EXPECT_THAT(out, StartsWith("HTTP/1.1 503"));
  // A refused request's reservation is released when its session ends,
  // which may be just after the client saw the connection close: wait
  // (bounded) until only the holder's 600 bytes are left.
  WaitForInflightBytes(600);
  EXPECT_EQ(server_->TEST_InflightBytes(), 600u);
  // Small requests still fit.
  ExpectStillServing();
  // The holder finishes; its bytes are released.
  net::write(holder, net::buffer(std::string(599, ' ')));
  beast::flat_buffer buffer;
  bhttp::response<bhttp::string_body> res;
  bhttp::read(holder, buffer, res);
  EXPECT_EQ(res.result_int(), 200);
  WaitForInflightBytes(0);
  EXPECT_EQ(server_->TEST_InflightBytes(), 0u);
  out = RawExchange(head + "Content-Length: 900\r\nConnection: close\r\n\r\n" +
                        std::string(900, ' '),
                    /*half_close=*/false);
  EXPECT_THAT(out, StartsWith("HTTP/1.1 200"));
}

TEST_F(ServerTest, HonoursExpectContinue) {
  StartServer();
  tcp::socket socket = Connect();
  std::string head =
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: DynamoDB_20120810.A\r\n"
      "Expect: 100-continue\r\nContent-Length: 2\r\n\r\n";
  net::write(socket, net::buffer(head));
  char buf[64];
  size_t n = socket.read_some(net::buffer(buf));
  EXPECT_THAT(std::string(buf, n), StartsWith("HTTP/1.1 100 Continue"));
  net::write(socket, net::buffer(std::string_view("{}")));
  beast::flat_buffer buffer;
  bhttp::response<bhttp::string_body> res;
  bhttp::read(socket, buffer, res);
  EXPECT_EQ(res.result_int(), 200);
}

TEST_F(ServerTest, ShutdownFinishesRequestsInFlight) {
  StartServer();
  tcp::socket idle = Connect();  // an idle keep-alive connection
  tcp::socket busy = Connect();
  bhttp::write(busy, ApiRequest("Slow", "{}"));
  while (calls_.load() == 0) std::this_thread::sleep_for(1ms);
  auto start = std::chrono::steady_clock::now();
  server_->Shutdown();  // returns once the slow request has been answered
  EXPECT_GE(std::chrono::steady_clock::now() - start, 100ms);

  beast::flat_buffer buffer;
  bhttp::response<bhttp::string_body> res;
  bhttp::read(busy, buffer, res);
  EXPECT_EQ(res.result_int(), 200);
  EXPECT_THAT(res.body(), HasSubstr("Slow"));
  EXPECT_FALSE(res.keep_alive());
  EXPECT_EQ(ReadUntilClosed(idle), "");
  EXPECT_EQ(server_->TEST_OpenConnections(), 0);

  tcp::socket late(ioc_);
  beast::error_code ec;
  late.connect(
      tcp::endpoint(net::ip::make_address("127.0.0.1"), server_->port()), ec);
  EXPECT_TRUE(ec) << "still accepting after Shutdown";
  server_->Shutdown();  // idempotent
}

TEST_F(ServerTest, ReportsAPortInUse) {
  StartServer();
  ServerOptions options;
  options.port = server_->port();
  auto second = Server::Start([](std::string_view, std::string_view,
                                 const CallerIdentity&) { return Response{}; },
                              options);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), ErrorCode::kIOError);
  EXPECT_THAT(second.status().message(), HasSubstr("cannot listen"));
}

TEST_F(ServerTest, ManyConcurrentClients) {
  StartServer();
  std::vector<std::thread> clients;
  std::atomic<int> ok{0};
  for (int t = 0; t < 8; ++t) {
    clients.emplace_back([&] {
      net::io_context ioc;
      tcp::socket socket(ioc);
      socket.connect(
          tcp::endpoint(net::ip::make_address("127.0.0.1"), server_->port()));
      for (int i = 0; i < 50; ++i) {
        if (RoundTrip(socket, ApiRequest("PutItem", "{}")).result_int() ==
            200) {
          ok.fetch_add(1);
        }
      }
    });
  }
  for (auto& c : clients) c.join();
  EXPECT_EQ(ok.load(), 400);
}

TEST(DefaultServerThreadsTest, FourPerCoreAtLeastEight) {
  EXPECT_EQ(DefaultServerThreads(0), 8);  // hardware_concurrency() unknown
  EXPECT_EQ(DefaultServerThreads(1), 8);
  EXPECT_EQ(DefaultServerThreads(2), 8);
  EXPECT_EQ(DefaultServerThreads(3), 12);
  EXPECT_EQ(DefaultServerThreads(16), 64);
}

// threads = 0 runs DefaultServerThreads(cores) threads: as many requests as
// that, one per connection, are inside the handler at once. Each handler
// waits (up to 10 s) for all of them; with fewer threads, two connections
// share one and the first's handler times out.
TEST_F(ServerTest, TheDefaultThreadsHoldThatManyBlockedRequestsAtOnce) {
  const int n = DefaultServerThreads(std::thread::hardware_concurrency());
  std::mutex mu;
  std::condition_variable all_in;
  int inside = 0;
  ServerOptions options;
  options.host = "127.0.0.1";
  options.port = 0;
  options.threads = 0;
  auto server = Server::Start(
      [&](std::string_view, std::string_view, const CallerIdentity&) {
        std::unique_lock<std::mutex> lock(mu);
        ++inside;
        all_in.notify_all();
        const bool all =
            all_in.wait_for(lock, 10s, [&] { return inside >= n; });
        Response r;
        r.body = all ? "all" : "alone";
        return r;
      },
      options);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  server_ = std::move(server).value();
  std::vector<tcp::socket> sockets;
  for (int i = 0; i < n; ++i) sockets.push_back(Connect());
  for (tcp::socket& socket : sockets) {
    bhttp::write(socket, ApiRequest("GetItem", "{}"));
  }
  for (tcp::socket& socket : sockets) {
    beast::flat_buffer buffer;
    bhttp::response<bhttp::string_body> res;
    bhttp::read(socket, buffer, res);
    EXPECT_EQ(res.body(), "all");
  }
}

// The first connection goes to the first serving thread, where the acceptor
// ran until it got a thread of its own: a handler blocked there kept the
// next connection from being accepted at all. Here it waits (up to 10 s)
// for a request sent on a connection opened after it blocked.
TEST_F(ServerTest, AHandlerBlockedOnTheFirstThreadDoesNotStopAccepting) {
  std::mutex mu;
  std::condition_variable cv;
  bool first_in = false;
  bool second_in = false;
  ServerOptions options;
  options.host = "127.0.0.1";
  options.port = 0;
  options.threads = 2;
  auto server = Server::Start(
      [&](std::string_view op, std::string_view, const CallerIdentity&) {
        std::unique_lock<std::mutex> lock(mu);
        Response r;
        if (op == "GetItem") {
          first_in = true;
          cv.notify_all();
          r.body = cv.wait_for(lock, 10s, [&] { return second_in; }) ? "both" : "alone";
        } else {
          second_in = true;
          cv.notify_all();
          r.body = "second";
        }
        return r;
      },
      options);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  server_ = std::move(server).value();
  tcp::socket first = Connect();
  bhttp::write(first, ApiRequest("GetItem", "{}"));
  {
    // EXPECT, not ASSERT: the test goes on to read both answers, so no
    // handler is left running with this test's locals once it returns.
    std::unique_lock<std::mutex> lock(mu);
    EXPECT_TRUE(cv.wait_for(lock, 10s, [&] { return first_in; }));
  }
  tcp::socket second = Connect();
  EXPECT_EQ(RoundTrip(second, ApiRequest("PutItem", "{}")).body(), "second");
  beast::flat_buffer buffer;
  bhttp::response<bhttp::string_body> res;
  bhttp::read(first, buffer, res);
  EXPECT_EQ(res.body(), "both");
}

}  // namespace
}  // namespace dynarock::api::http
