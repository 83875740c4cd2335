// tools/http/http_client.cc

#include "tools/http/http_client.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <charconv>
#include <ctime>

#include "api/json_codec.h"

namespace dynarock::tools::http {
namespace {

namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

// DynamoDB answers up to 16 MB (BatchGetItem); leave room.
constexpr uint64_t kMaxResponseBytes = 64ull << 20;

std::string AmzDateNow() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", &utc);
  return text;
}

api::Response TransportError(std::string_view what,
                             const beast::error_code& ec) {
  return api::Response{0, std::string(what) + ": " + ec.message()};
}

}  // namespace

Result<Endpoint> ParseEndpoint(std::string_view url) {
  constexpr std::string_view kScheme = "http://";
  if (url.substr(0, kScheme.size()) != kScheme) {
    return Status::Validation("endpoint " + std::string(url) +
                              ": only http:// endpoints are supported");
  }
  std::string_view rest = url.substr(kScheme.size());
  if (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  if (rest.empty() || rest.find('/') != std::string_view::npos) {
    return Status::Validation("endpoint " + std::string(url) +
                              ": expected http://host[:port]");
  }
  Endpoint e;
  std::string_view port = "80";
  if (rest.front() == '[') {  // [v6]:port
    size_t close = rest.find(']');
    if (close == std::string_view::npos) {
      return Status::Validation("endpoint " + std::string(url) + ": bad IPv6 host");
    }
    e.host = std::string(rest.substr(1, close - 1));
    rest.remove_prefix(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') {
        return Status::Validation("endpoint " + std::string(url) + ": bad port");
      }
      port = rest.substr(1);
    }
  } else if (size_t colon = rest.rfind(':'); colon != std::string_view::npos) {
    e.host = std::string(rest.substr(0, colon));
    port = rest.substr(colon + 1);
  } else {
    e.host = std::string(rest);
  }
  int number = 0;
  auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), number);
  if (ec != std::errc() || end != port.data() + port.size() || number < 1 ||
      number > 65535 || e.host.empty()) {
    return Status::Validation("endpoint " + std::string(url) + ": bad host or port");
  }
  e.port = std::string(port);
  return e;
}

std::string DummyAuthorization(std::string_view access_key_id,
                               std::string_view region,
                               std::string_view amz_date) {
  std::string auth = "AWS4-HMAC-SHA256 Credential=";
  auth += access_key_id;
  auth += "/";
  auth += amz_date.substr(0, 8);
  auth += "/";
  auth += region;
  auth += "/dynamodb/aws4_request, SignedHeaders=content-type;host;x-amz-date;"
          "x-amz-target, Signature=";
  auth += std::string(64, '0');
  return auth;
}

struct DynamoDbHttpClient::Impl {
  Endpoint endpoint;
  HttpClientOptions options;
  net::io_context ioc;
  tcp::socket socket{ioc};
  beast::flat_buffer buffer;
  bool connected = false;

  beast::error_code Connect() {
    beast::error_code ec;
    tcp::resolver resolver(ioc);
    auto results = resolver.resolve(endpoint.host, endpoint.port, ec);
    if (ec) return ec;
    net::connect(socket, results, ec);
    if (ec) return ec;
    connected = true;
    buffer.clear();
    return ec;
  }

  void Close() {
    beast::error_code ignored;
    socket.shutdown(tcp::socket::shutdown_both, ignored);
    socket.close(ignored);
    connected = false;
  }
};

DynamoDbHttpClient::DynamoDbHttpClient(Endpoint endpoint,
                                       HttpClientOptions options)
    : impl_(std::make_unique<Impl>()) {
  impl_->endpoint = std::move(endpoint);
  impl_->options = std::move(options);
}

DynamoDbHttpClient::~DynamoDbHttpClient() {
  if (impl_->connected) impl_->Close();
}

api::Response DynamoDbHttpClient::Call(std::string_view operation,
                                       std::string_view body) {
  std::string target(operation);
  if (operation.find('.') == std::string_view::npos) {
    target = "DynamoDB_20120810." + target;
  }
  const std::string amz_date = AmzDateNow();
  bhttp::request<bhttp::string_body> req{bhttp::verb::post, "/", 11};
  const bool default_port = impl_->endpoint.port == "80";
  std::string host = impl_->endpoint.host.find(':') != std::string::npos
                         ? "[" + impl_->endpoint.host + "]"
                         : impl_->endpoint.host;
  if (!default_port) host += ":" + impl_->endpoint.port;
  req.set(bhttp::field::host, host);
  req.set(bhttp::field::content_type, "application/x-amz-json-1.0");
  req.set("X-Amz-Target", target);
  req.set("X-Amz-Date", amz_date);
  req.set(bhttp::field::authorization,
          DummyAuthorization(impl_->options.access_key_id,
                             impl_->options.region, amz_date));
  req.set(bhttp::field::user_agent, "dynarock-load");
  req.keep_alive(true);
  req.body() = std::string(body);
  req.prepare_payload();

  // A reused connection may have been closed by the server meanwhile: then
  // the first write or read fails and the request is sent once more on a
  // new connection.
  for (int attempt = 0; attempt < 2; ++attempt) {
    const bool reused = impl_->connected;
    if (!impl_->connected) {
      if (beast::error_code ec = impl_->Connect()) {
        return TransportError("connect to " + impl_->endpoint.host + ":" +
                                  impl_->endpoint.port,
                              ec);
      }
    }
    beast::error_code ec;
    bhttp::write(impl_->socket, req, ec);
    if (!ec) {
      bhttp::response_parser<bhttp::string_body> parser;
      parser.body_limit(kMaxResponseBytes);
      bhttp::read(impl_->socket, impl_->buffer, parser, ec);
      if (!ec) {
        auto res = parser.release();
        if (!res.keep_alive()) impl_->Close();
        return api::Response{static_cast<int>(res.result_int()),
                             std::move(res.body())};
      }
    }
    impl_->Close();
    if (!reused) return TransportError("HTTP request", ec);
  }
  return api::Response{0, "HTTP request: the server closed the connection"};
}

std::string DescribeErrorResponse(const api::Response& r) {
  api::Json body = api::Json::parse(r.body, nullptr, /*allow_exceptions=*/false);
  if (!body.is_object()) return "HTTP " + std::to_string(r.http_status) + ": " + r.body;
  std::string type = body.value("__type", std::string());
  type = type.substr(type.find('#') + 1);  // npos + 1 == 0: whole string
  std::string message = body.contains("message") && body["message"].is_string()
                            ? body["message"].get<std::string>()
                        : body.contains("Message") && body["Message"].is_string()
                            ? body["Message"].get<std::string>()
                            : std::string();
  return message.empty() ? type : type + ": " + message;
}

}  // namespace dynarock::tools::http
