// tools/http/http_client.cc

#include "tools/http/http_client.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <charconv>
#include <ctime>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "api/json_codec.h"
#include "tools/http/request_signer.h"

namespace dynarock::tools::http {
namespace {

namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
using tcp = net::ip::tcp;

// DynamoDB answers up to 16 MB (BatchGetItem); leave room.
constexpr uint64_t kMaxResponseBytes = 64ull << 20;

api::Response TransportError(std::string_view what,
                             const beast::error_code& ec) {
  if (ec == beast::error::timeout) {
    return api::Response{0, std::string(what) + ": timed out"};
  }
  return api::Response{0, std::string(what) + ": " + ec.message()};
}

}  // namespace

Result<Endpoint> ParseEndpoint(std::string_view url) {
  Endpoint e;
  std::string_view rest;
  std::string_view port;
  if (url.substr(0, 7) == "http://") {
    rest = url.substr(7);
    port = "80";
  } else if (url.substr(0, 8) == "https://") {
    rest = url.substr(8);
    port = "443";
    e.tls = true;
  } else {
    return Status::Validation("endpoint " + std::string(url) +
                              ": expected http:// or https://");
  }
  if (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  if (rest.empty() || rest.find('/') != std::string_view::npos) {
    return Status::Validation("endpoint " + std::string(url) +
                              ": expected http[s]://host[:port]");
  }
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

// Every step runs as an asynchronous operation on the client's own
// io_context, driven until it completes: beast's tcp_stream then enforces
// the timeout, which blocking socket calls cannot.
struct DynamoDbHttpClient::Impl {
  Endpoint endpoint;
  HttpClientOptions options;
  net::io_context ioc;
  std::unique_ptr<ssl::context> tls_context;
  std::unique_ptr<beast::tcp_stream> plain;
  std::unique_ptr<beast::ssl_stream<beast::tcp_stream>> tls;
  beast::flat_buffer buffer;
  bool connected = false;

  beast::tcp_stream& Lowest() {
    return tls ? beast::get_lowest_layer(*tls) : *plain;
  }

  // Runs the io_context until `done`.
  void RunUntil(const bool& done) {
    ioc.restart();
    while (!done && ioc.run_one() > 0) {
    }
  }

  beast::error_code Connect() {
    beast::error_code ec;
    tcp::resolver resolver(ioc);
    auto results = resolver.resolve(endpoint.host, endpoint.port, ec);
    if (ec) return ec;
    if (endpoint.tls) {
      if (!tls_context) {
        tls_context = std::make_unique<ssl::context>(ssl::context::tls_client);
        if (options.ca_file.empty()) {
          tls_context->set_default_verify_paths(ec);
        } else {
          tls_context->load_verify_file(options.ca_file, ec);
        }
        if (ec) return ec;
        tls_context->set_verify_mode(ssl::verify_peer);
      }
      tls = std::make_unique<beast::ssl_stream<beast::tcp_stream>>(ioc, *tls_context);
      // SNI, and the certificate must name the host.
      if (!SSL_set_tlsext_host_name(tls->native_handle(), endpoint.host.c_str())) {
        return beast::error_code(static_cast<int>(::ERR_get_error()),
                                 net::error::get_ssl_category());
      }
      tls->set_verify_callback(ssl::host_name_verification(endpoint.host));
    } else {
      plain = std::make_unique<beast::tcp_stream>(ioc);
    }
    bool done = false;
    Lowest().expires_after(options.timeout);
    Lowest().async_connect(results, [&](beast::error_code e, const tcp::endpoint&) {
      ec = e;
      done = true;
    });
    RunUntil(done);
    if (!ec && tls) {
      done = false;
      Lowest().expires_after(options.timeout);
      tls->async_handshake(ssl::stream_base::client, [&](beast::error_code e) {
        ec = e;
        done = true;
      });
      RunUntil(done);
    }
    if (ec) {
      Close();
      return ec;
    }
    connected = true;
    buffer.clear();
    return ec;
  }

  // Writes `req` and reads the response into `parser`.
  beast::error_code Exchange(bhttp::request<bhttp::string_body>& req,
                             bhttp::response_parser<bhttp::string_body>& parser) {
    beast::error_code ec;
    bool done = false;
    Lowest().expires_after(options.timeout);
    auto on_write = [&](beast::error_code e, size_t) {
      ec = e;
      done = true;
    };
    if (tls) bhttp::async_write(*tls, req, on_write);
    else bhttp::async_write(*plain, req, on_write);
    RunUntil(done);
    if (ec) return ec;
    done = false;
    auto on_read = [&](beast::error_code e, size_t) {
      ec = e;
      done = true;
    };
    if (tls) bhttp::async_read(*tls, buffer, parser, on_read);
    else bhttp::async_read(*plain, buffer, parser, on_read);
    RunUntil(done);
    return ec;
  }

  void Close() {
    if (plain || tls) {
      beast::error_code ignored;
      Lowest().socket().shutdown(tcp::socket::shutdown_both, ignored);
      Lowest().socket().close(ignored);
    }
    // Handlers still queued (a timer's cancellation) refer to the streams.
    ioc.restart();
    ioc.poll();
    tls.reset();
    plain.reset();
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
  const std::string amz_date = AmzDate(std::time(nullptr));
  bhttp::request<bhttp::string_body> req{bhttp::verb::post, "/", 11};
  const bool default_port = impl_->endpoint.port == (impl_->endpoint.tls ? "443" : "80");
  std::string host = impl_->endpoint.host.find(':') != std::string::npos
                         ? "[" + impl_->endpoint.host + "]"
                         : impl_->endpoint.host;
  if (!default_port) host += ":" + impl_->endpoint.port;
  constexpr std::string_view kContentType = "application/x-amz-json-1.0";
  req.set(bhttp::field::host, host);
  req.set(bhttp::field::content_type, std::string(kContentType));
  req.set("X-Amz-Target", target);
  req.set("X-Amz-Date", amz_date);
  const std::optional<AwsCredentials>& creds = impl_->options.credentials;
  if (creds) {
    api::http::SignedRequest to_sign{"POST", "/",
                                     {{"content-type", kContentType},
                                      {"host", host},
                                      {"x-amz-date", amz_date},
                                      {"x-amz-target", target}},
                                     body};
    std::vector<std::string> signed_headers = {"content-type", "host", "x-amz-date",
                                               "x-amz-target"};
    if (!creds->session_token.empty()) {
      req.set("X-Amz-Security-Token", creds->session_token);
      to_sign.headers.emplace_back("x-amz-security-token", creds->session_token);
      signed_headers.insert(signed_headers.begin() + 3, "x-amz-security-token");
    }
    req.set(bhttp::field::authorization,
            SigV4Authorization(to_sign, signed_headers,
                               SigningKey{creds->access_key_id, creds->secret_access_key,
                                          impl_->options.region, "dynamodb"},
                               amz_date));
  } else {
    req.set(bhttp::field::authorization,
            DummyAuthorization(impl_->options.access_key_id,
                               impl_->options.region, amz_date));
  }
  req.set(bhttp::field::user_agent, impl_->options.user_agent);
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
    bhttp::response_parser<bhttp::string_body> parser;
    parser.body_limit(kMaxResponseBytes);
    beast::error_code ec = impl_->Exchange(req, parser);
    if (!ec) {
      auto res = parser.release();
      if (!res.keep_alive()) impl_->Close();
      return api::Response{static_cast<int>(res.result_int()), std::move(res.body())};
    }
    impl_->Close();
    // A timeout is not a stale connection: do not send it again here.
    if (!reused || ec == beast::error::timeout) return TransportError("HTTP request", ec);
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
