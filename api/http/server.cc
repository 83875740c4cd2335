// api/http/server.cc
//
// One Session per connection. Each of the `threads` threads runs an
// io_context of its own, and the acceptor, on a thread of its own, deals
// connections out to them in turn: a connection's handlers all run on one
// thread, so that a request never hops between threads (no strand, no
// cross-thread wake-up; on this path the scheduler's hand-offs cost more
// than parsing). A session waits
// for a request's first byte (idle_timeout), reads its headers
// (header_timeout), reserves its
// Content-Length against the server-wide in-flight budget, reads its body
// (request_timeout; chunked bodies reserve as they grow), answers it through
// HandleRequest on the same thread, releases the reservation, writes the
// response, and loops while the connection is kept alive. Connections
// beyond max_connections become short-lived rejecting sessions that write
// one 503 and close. The Handler runs on the io threads: engine calls
// are short; a slow one holds only the connections of its thread (four
// threads per core by default), never the acceptor, so new connections are
// taken while every io thread is busy.

#include "api/http/server.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <condition_variable>
#include <cstdio>
#include <ctime>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace dynarock::api::http {
namespace {

namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;

// After a 413 or a malformed request, the rest of what the client sends is
// read and dropped for a while before the close, so that the client gets to
// read the response instead of a reset.
constexpr std::chrono::seconds kDrainTime{5};
constexpr size_t kDrainMaxBytes = 64 * 1024 * 1024;
// A connection refused for being over max_connections gets its 503 and at
// most this long to read it; at most kMaxRejecting are in that state at
// once, and further ones are closed without an answer.
constexpr std::chrono::seconds kRejectDrainTime{1};
constexpr int kMaxRejecting = 64;
// The first read of a request, which ends the connection's idle wait.
constexpr size_t kFirstReadBytes = 4096;

class Session;

// What sessions share with the server. Outlives the io_context, so that a
// session destroyed with it can still unregister.
struct Shared {
  Handler handler;
  ServerOptions options;

  std::mutex mu;
  std::condition_variable cv;  // signalled when a session goes away
  std::unordered_map<uint64_t, std::weak_ptr<Session>> sessions;  // mu
  uint64_t next_id = 0;                                           // mu
  // Set once, under mu, when shutdown begins; read without it too.
  std::atomic<bool> stopping{false};
  std::atomic<int> open{0};       // sessions serving requests
  std::atomic<int> rejecting{0};  // sessions answering 503 before closing
  // Bytes of request bodies reserved by sessions, at most
  // options.max_inflight_bytes.
  std::atomic<size_t> inflight{0};

  // Adds a session (`counted` in `open`, or a rejecting one); false once
  // shutdown has begun.
  bool Register(const std::shared_ptr<Session>& session, bool counted,
                uint64_t* id) {
    std::lock_guard<std::mutex> lock(mu);
    if (stopping.load(std::memory_order_relaxed)) return false;
    *id = ++next_id;
    sessions.emplace(*id, session);
    (counted ? open : rejecting).fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  void Unregister(uint64_t id, bool counted) {
    std::lock_guard<std::mutex> lock(mu);
    if (sessions.erase(id) > 0) {
      (counted ? open : rejecting).fetch_sub(1, std::memory_order_relaxed);
    }
    cv.notify_all();
  }

  // Adds `bytes` to `inflight` if that stays within the limit.
  bool TryReserve(size_t bytes) {
    size_t now = inflight.load(std::memory_order_relaxed);
    do {
      if (bytes > options.max_inflight_bytes ||
          now > options.max_inflight_bytes - bytes) {
        return false;
      }
    } while (!inflight.compare_exchange_weak(now, now + bytes,
                                             std::memory_order_relaxed));
    return true;
  }
  void Release(size_t bytes) {
    inflight.fetch_sub(bytes, std::memory_order_relaxed);
  }
};

std::optional<std::string_view> FindHeader(
    const bhttp::request<bhttp::string_body>& req, std::string_view name) {
  auto it = req.find(beast::string_view(name.data(), name.size()));
  if (it == req.end()) return std::nullopt;
  beast::string_view v = it->value();
  return std::string_view(v.data(), v.size());
}

// The Date header's value now, in RFC 9110's IMF-fixdate form ("Tue, 01 Dec
// 2026 19:30:00 GMT"), which every DynamoDB response carries; formatted at
// most once a second per thread, without the C locale's strftime.
std::string_view HttpDate() {
  static constexpr const char* kDays[] = {"Sun", "Mon", "Tue", "Wed",
                                          "Thu", "Fri", "Sat"};
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr",
                                            "May", "Jun", "Jul", "Aug",
                                            "Sep", "Oct", "Nov", "Dec"};
  thread_local std::time_t formatted_at = -1;
  thread_local std::array<char, 40> text{};
  thread_local int length = 0;
  const std::time_t now = std::time(nullptr);
  if (now != formatted_at) {
    std::tm tm{};
    gmtime_r(&now, &tm);
    length = std::snprintf(text.data(), text.size(),
                           "%s, %02d %s %04d %02d:%02d:%02d GMT",
                           kDays[tm.tm_wday % 7], tm.tm_mday,
                           kMonths[tm.tm_mon % 12], tm.tm_year + 1900,
                           tm.tm_hour, tm.tm_min, tm.tm_sec);
    formatted_at = now;
  }
  return std::string_view(text.data(), static_cast<size_t>(std::max(length, 0)));
}

bool IsHttpParseError(const beast::error_code& ec) {
  return ec.category() ==
         bhttp::make_error_code(bhttp::error::bad_target).category();
}

class Session : public std::enable_shared_from_this<Session> {
 public:
  // A rejecting session (`reject`) answers 503 and closes.
  Session(tcp::socket socket, Shared* shared, bool reject)
      : stream_(std::move(socket)),
        delay_timer_(stream_.get_executor()),
        buffer_(shared->options.max_header_bytes + 64 * 1024),
        shared_(shared),
        reject_(reject) {}

  ~Session() {
    ReleaseReservation();
    if (id_ != 0) shared_->Unregister(id_, !reject_);
  }

  void Start(uint64_t id) {
    id_ = id;
    beast::error_code ec;
    net::ip::address peer = stream_.socket().remote_endpoint(ec).address();
    if (peer.is_v6() && peer.to_v6().is_v4_mapped()) {
      peer = net::ip::make_address_v4(net::ip::v4_mapped, peer.to_v6());
    }
    peer_loopback_ = !ec && peer.is_loopback();
    if (reject_) {
      net::dispatch(stream_.get_executor(), [self = shared_from_this()] {
        self->Respond(ServiceUnavailableResponse(), false, /*drain=*/true);
      });
      return;
    }
    net::dispatch(
        stream_.get_executor(),
        beast::bind_front_handler(&Session::ReadHeader, shared_from_this()));
  }

  // Runs on the session's thread: closes an idle or draining connection
  // now; a busy one closes after its current response.
  void Stop() {
    stopping_ = true;
    delay_timer_.cancel();
    if ((idle_ && buffer_.size() == 0) || draining_) stream_.cancel();
  }

  net::any_io_executor executor() { return stream_.get_executor(); }

 private:
  const ServerOptions& options() const { return shared_->options; }

  // Waits (idle_timeout) for the first byte of the next request, unless
  // the client already sent it.
  void ReadHeader() {
    if (stopping_) return Close();
    ReleaseReservation();
    parser_.emplace();
    parser_->header_limit(static_cast<uint32_t>(
        std::min<size_t>(options().max_header_bytes, UINT32_MAX)));
    parser_->body_limit(options().max_body_bytes);
    if (buffer_.size() > 0) return ReadRestOfHeader();
    idle_ = true;
    stream_.expires_after(options().idle_timeout);
    stream_.async_read_some(
        buffer_.prepare(kFirstReadBytes),
        [self = shared_from_this()](beast::error_code ec, size_t n) {
          self->buffer_.commit(n);
          if (ec) return self->Close();  // gone, idle too long, or stopped
          self->ReadRestOfHeader();
        });
  }

  // The request has begun: its headers get header_timeout.
  void ReadRestOfHeader() {
    idle_ = false;
    stream_.expires_after(options().header_timeout);
    bhttp::async_read_header(
        stream_, buffer_, *parser_,
        beast::bind_front_handler(&Session::OnHeader, shared_from_this()));
  }

  void OnHeader(beast::error_code ec, size_t /*bytes*/) {
    if (ec) return OnReadError(ec);
    idle_ = false;
    http11_ = parser_->get().version() >= 11;
    stream_.expires_after(options().request_timeout);
    // The declared body is reserved before any of it is read (and before
    // a 100 Continue invites it).
    if (!Reserve(parser_->content_length().value_or(0))) {
      return Respond(ServiceUnavailableResponse(), false, /*drain=*/true);
    }
    auto& req = parser_->get();
    auto expect = req.find(bhttp::field::expect);
    if (expect != req.end() &&
        beast::iequals(expect->value(), "100-continue")) {
      static constexpr std::string_view kContinue =
          "HTTP/1.1 100 Continue\r\n\r\n";
      net::async_write(
          stream_, net::buffer(kContinue.data(), kContinue.size()),
          [self = shared_from_this()](beast::error_code wec, size_t) {
            if (wec) return self->Close();
            self->ReadBody();
          });
      return;
    }
    ReadBody();
  }

  // Reads the body piece by piece, so that a chunked body (whose length
  // is not declared) is reserved as it grows.
  void ReadBody() {
    if (parser_->is_done()) return OnBody();
    bhttp::async_read_some(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, size_t) {
          if (ec) return self->OnReadError(ec);
          if (!self->Reserve(self->parser_->get().body().size())) {
            return self->Respond(ServiceUnavailableResponse(), false,
                                 /*drain=*/true);
          }
          self->ReadBody();
        });
  }

  void OnBody() {
    const auto& req = parser_->get();
    HttpRequest request;
    beast::string_view method = req.method_string();
    request.method = std::string_view(method.data(), method.size());
    beast::string_view path = req.target();
    request.path = std::string_view(path.data(), path.size());
    request.host = FindHeader(req, "Host");
    request.content_type = FindHeader(req, "Content-Type");
    request.target = FindHeader(req, "X-Amz-Target");
    request.authorization = FindHeader(req, "Authorization");
    request.origin = FindHeader(req, "Origin");
    request.access_control_request_headers =
        FindHeader(req, "Access-Control-Request-Headers");
    request.access_control_request_method =
        FindHeader(req, "Access-Control-Request-Method");
    request.content_encoding = FindHeader(req, "Content-Encoding");
    // A list header may come in several lines: one list (RFC 9110 5.3).
    std::string accept_encoding;
    for (auto [it, end] = req.equal_range(bhttp::field::accept_encoding);
         it != end; ++it) {
      if (!accept_encoding.empty()) accept_encoding += ',';
      accept_encoding.append(it->value().data(), it->value().size());
    }
    request.accept_encoding = accept_encoding;
    request.body = req.body();
    request.peer_loopback = peer_loopback_;
    // A compressed body's decoded bytes count against the in-flight budget
    // beside the bytes received.
    request.max_decoded_bytes = options().max_body_bytes;
    request.reserve_decoded = [this, sent = req.body().size()](size_t n) {
      return Reserve(sent + n);
    };
    if (options().protocol.secrets != nullptr) {
      request.request_target = request.path;
      for (const auto& field : req) {
        beast::string_view name = field.name_string();
        beast::string_view value = field.value();
        request.all_headers.emplace_back(
            std::string_view(name.data(), name.size()),
            std::string_view(value.data(), value.size()));
      }
    }
    HttpResponse response =
        HandleRequest(request, shared_->handler, options().protocol);
    if (req.method() == bhttp::verb::head) {
      response.body.clear();
      response.chunked = false;
    }
    bool keep_alive = req.keep_alive() && !stopping_ &&
                      !shared_->stopping.load(std::memory_order_acquire);
    // The request's bytes are no longer needed.
    parser_.reset();
    ReleaseReservation();
    if (response.delay_micros > 0) return RespondLater(std::move(response), keep_alive);
    Respond(std::move(response), keep_alive, /*drain=*/false);
  }

  // A fault rule's latency (api/fault/fault_injection.h): the answer waits
  // on a timer of the session's own io_context, holding no thread; Stop()
  // cuts the wait short, so a shutdown never waits for it.
  void RespondLater(HttpResponse response, bool keep_alive) {
    idle_ = false;
    const auto delay = std::chrono::microseconds(response.delay_micros);
    delayed_ = std::move(response);
    delay_timer_.expires_after(delay);
    delay_timer_.async_wait([self = shared_from_this(), keep_alive](beast::error_code) {
      self->Respond(std::move(self->delayed_), keep_alive, /*drain=*/false);
    });
  }

  void OnReadError(beast::error_code ec) {
    // A Content-Length over the limit fails the header read itself, once
    // the request line (and its version) has been read.
    if (parser_) http11_ = parser_->get().version() >= 11;
    if (ec == bhttp::error::body_limit) {
      return Respond(PayloadTooLargeResponse(), false, /*drain=*/true);
    }
    // A message cut short is a client that went away, not a bad request.
    if (ec != bhttp::error::end_of_stream &&
        ec != bhttp::error::partial_message && IsHttpParseError(ec)) {
      return Respond(BadHttpRequestResponse(), false, /*drain=*/true);
    }
    // End of stream, timeout, reset, cancelled by Stop(): nothing to say.
    Close();
  }

  // Writes the response: its head serialized here as Beast serializes a
  // message (status line with Beast's reason phrase, the headers in order,
  // Date, Connection: close when the connection ends, Content-Length), and
  // the body, in one gather write from buffers the session keeps: no field
  // allocations, no serializer state, per response. A chunked response (to
  // an HTTP/1.1 client) is the body as one chunk and the last chunk.
  void Respond(HttpResponse r, bool keep_alive, bool drain) {
    idle_ = false;
    head_.clear();
    head_.append("HTTP/1.1 ");
    head_.append(std::to_string(r.status));
    head_.push_back(' ');
    const beast::string_view reason =
        bhttp::obsolete_reason(bhttp::int_to_status(static_cast<unsigned>(r.status)));
    head_.append(reason.data(), reason.size());
    head_.append("\r\n");
    for (const auto& [name, value] : r.headers) {
      head_.append(name);
      head_.append(": ");
      head_.append(value);
      head_.append("\r\n");
    }
    head_.append("Date: ");
    head_.append(HttpDate());
    head_.append("\r\n");
    if (!keep_alive) head_.append("Connection: close\r\n");
    const bool chunked = r.chunked && http11_;
    tail_.clear();
    if (chunked) {
      head_.append("Transfer-Encoding: chunked\r\n\r\n");
      if (!r.body.empty()) {
        char size[20];
        const int n = std::snprintf(size, sizeof(size), "%zx\r\n", r.body.size());
        head_.append(size, static_cast<size_t>(n));
        tail_ = "\r\n";
      }
      tail_.append("0\r\n\r\n");
    } else {
      head_.append("Content-Length: ");
      head_.append(std::to_string(r.body.size()));
      head_.append("\r\n\r\n");
    }
    body_ = std::move(r.body);
    const std::array<net::const_buffer, 3> buffers{
        net::buffer(head_), net::buffer(body_), net::buffer(tail_)};
    stream_.expires_after(options().request_timeout);
    net::async_write(stream_, buffers,
                     [self = shared_from_this(), keep_alive, drain](
                         beast::error_code ec, size_t) {
                       if (ec) return self->Close();
                       if (drain) return self->DrainAndClose();
                       if (!keep_alive) return self->Close();
                       self->ReadHeader();
                     });
  }

  void DrainAndClose() {
    draining_ = true;
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    buffer_.consume(buffer_.size());
    drain_buffer_ = std::make_unique<std::array<char, 64 * 1024>>();
    stream_.expires_after(reject_ ? kRejectDrainTime : kDrainTime);
    DrainSome();
  }

  void DrainSome() {
    stream_.async_read_some(
        net::buffer(*drain_buffer_),
        [self = shared_from_this()](beast::error_code ec, size_t n) {
          self->drained_ += n;
          if (ec || self->drained_ > kDrainMaxBytes) return self->Close();
          self->DrainSome();
        });
  }

  // Grows this request's reservation to `bytes`; false if the server-wide
  // budget does not allow it.
  bool Reserve(size_t bytes) {
    if (bytes <= reserved_) return true;
    if (!shared_->TryReserve(bytes - reserved_)) return false;
    reserved_ = bytes;
    return true;
  }
  void ReleaseReservation() {
    shared_->Release(reserved_);
    reserved_ = 0;
  }

  void Close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ec);
    stream_.close();
  }

  beast::tcp_stream stream_;
  net::steady_timer delay_timer_;
  HttpResponse delayed_;  // the answer RespondLater holds
  beast::flat_buffer buffer_;
  std::optional<bhttp::request_parser<bhttp::string_body>> parser_;
  std::string head_;  // the response being written: status line, headers
  std::string body_;  // and body
  std::string tail_;  // and, chunked, the end of the chunks
  std::unique_ptr<std::array<char, 64 * 1024>> drain_buffer_;
  size_t drained_ = 0;
  Shared* shared_;
  const bool reject_;
  size_t reserved_ = 0;  // bytes of shared_->inflight this session holds
  uint64_t id_ = 0;
  bool idle_ = true;       // waiting for a request's headers
  bool http11_ = false;    // the request is HTTP/1.1 (may get chunks)
  bool stopping_ = false;  // Stop() was called
  bool draining_ = false;  // discarding input before a close
  bool peer_loopback_ = false;  // the client's address is a loopback one
};

}  // namespace

struct Server::Impl {
  // Declared first: sessions destroyed with the io_contexts unregister from it.
  Shared shared;
  // One per thread, each run by that thread alone (concurrency hint 1).
  std::vector<std::unique_ptr<net::io_context>> iocs;
  // Keep the threads in run() until Shutdown() is done, so that the
  // handlers it posts run even when nothing else is pending.
  std::vector<net::executor_work_guard<net::io_context::executor_type>> work;
  // The acceptor's own, run by accept_thread: on an io thread, a handler
  // that blocks there (a long request, or one waiting for a lock) would
  // stop every new connection from being accepted until it returns.
  net::io_context accept_ioc{1};
  net::executor_work_guard<net::io_context::executor_type> accept_work;
  tcp::acceptor acceptor;  // on accept_ioc
  net::steady_timer accept_retry;
  size_t next_ioc = 0;  // the io_context of the next connection; acceptor's thread only
  std::vector<std::thread> threads;
  std::thread accept_thread;
  std::string host;
  uint16_t port = 0;
  std::once_flag shutdown_once;

  static std::vector<std::unique_ptr<net::io_context>> MakeContexts(int count) {
    std::vector<std::unique_ptr<net::io_context>> contexts;
    for (int i = 0; i < count; ++i) contexts.push_back(std::make_unique<net::io_context>(1));
    return contexts;
  }

  explicit Impl(int thread_count)
      : iocs(MakeContexts(thread_count)),
        accept_work(net::make_work_guard(accept_ioc)),
        acceptor(accept_ioc.get_executor()),
        accept_retry(acceptor.get_executor()) {
    for (auto& ioc : iocs) work.push_back(net::make_work_guard(*ioc));
  }

  Status Listen() {
    const ServerOptions& options = shared.options;
    beast::error_code ec;
    tcp::endpoint endpoint;
    net::ip::address address = net::ip::make_address(options.host, ec);
    if (!ec) {
      endpoint = tcp::endpoint(address, options.port);
    } else {
      net::io_context resolver_ioc;
      tcp::resolver resolver(resolver_ioc);
      auto results =
          resolver.resolve(options.host, std::to_string(options.port), ec);
      if (ec || results.empty()) {
        return Status::IOError("cannot resolve host '" + options.host +
                               "': " + ec.message());
      }
      endpoint = results.begin()->endpoint();
    }
    auto fail = [&](const char* what) {
      return Status::IOError(std::string("cannot listen on ") + options.host +
                             ":" + std::to_string(options.port) + " (" + what +
                             "): " + ec.message());
    };
    acceptor.open(endpoint.protocol(), ec);
    if (ec) return fail("open");
    acceptor.set_option(net::socket_base::reuse_address(true), ec);
    if (ec) return fail("reuse_address");
    acceptor.bind(endpoint, ec);
    if (ec) return fail("bind");
    acceptor.listen(net::socket_base::max_listen_connections, ec);
    if (ec) return fail("listen");
    tcp::endpoint local = acceptor.local_endpoint(ec);
    if (ec) return fail("local_endpoint");
    host = local.address().to_string();
    port = local.port();
    return Status::OK();
  }

  void Accept() {
    net::io_context& ioc = *iocs[next_ioc];
    next_ioc = (next_ioc + 1) % iocs.size();
    acceptor.async_accept(ioc.get_executor(), [this](beast::error_code ec,
                                                      tcp::socket socket) {
      if (!acceptor.is_open()) return;
      if (ec) {
        // Out of descriptors and the like: back off instead of spinning.
        accept_retry.expires_after(std::chrono::milliseconds(50));
        accept_retry.async_wait([this](beast::error_code wec) {
          if (!wec && acceptor.is_open()) Accept();
        });
        return;
      }
      OnAccept(std::move(socket));
      Accept();
    });
  }

  void OnAccept(tcp::socket socket) {
    const bool reject = shared.open.load(std::memory_order_relaxed) >=
                        shared.options.max_connections;
    beast::error_code ec;
    if (reject &&
        shared.rejecting.load(std::memory_order_relaxed) >= kMaxRejecting) {
      socket.close(ec);
      return;
    }
    socket.set_option(tcp::no_delay(true), ec);
    auto session =
        std::make_shared<Session>(std::move(socket), &shared, reject);
    uint64_t id = 0;
    if (shared.Register(session, !reject, &id)) session->Start(id);
  }

  void Run(net::io_context* ioc) {
    for (;;) {
      try {
        ioc->run();
        return;
      } catch (const std::exception& e) {
        std::fprintf(stderr, "dynarock: http worker: %s\n", e.what());
      } catch (...) {
        std::fprintf(stderr, "dynarock: http worker: unknown exception\n");
      }
    }
  }

  void Shutdown() {
    std::call_once(shutdown_once, [this] {
      std::vector<std::shared_ptr<Session>> live;
      {
        std::lock_guard<std::mutex> lock(shared.mu);
        shared.stopping.store(true, std::memory_order_release);
        for (auto& [id, weak] : shared.sessions) {
          if (auto s = weak.lock()) live.push_back(std::move(s));
        }
      }
      net::post(acceptor.get_executor(), [this] {
        beast::error_code ec;
        acceptor.close(ec);
        accept_retry.cancel();
      });
      for (auto& s : live) {
        net::any_io_executor executor = s->executor();
        net::post(executor, [s = std::move(s)] { s->Stop(); });
      }
      {
        std::unique_lock<std::mutex> lock(shared.mu);
        shared.cv.wait_for(lock, shared.options.shutdown_grace,
                           [this] { return shared.sessions.empty(); });
      }
      for (auto& guard : work) guard.reset();
      accept_work.reset();
      for (auto& ioc : iocs) ioc->stop();
      accept_ioc.stop();
      for (auto& t : threads) {
        if (t.joinable()) t.join();
      }
      if (accept_thread.joinable()) accept_thread.join();
    });
  }
};

int DefaultServerThreads(unsigned cores) {
  return std::max(8, 4 * static_cast<int>(std::min(cores, 1024u)));
}

Result<std::unique_ptr<Server>> Server::Start(Handler handler,
                                              const ServerOptions& options) {
  int threads = options.threads;
  if (threads <= 0) {
    threads = DefaultServerThreads(std::thread::hardware_concurrency());
  }
  auto impl = std::make_unique<Impl>(threads);
  impl->shared.handler = std::move(handler);
  impl->shared.options = options;
  Status status = impl->Listen();
  if (!status.ok()) return status;
  impl->Accept();
  for (int i = 0; i < threads; ++i) {
    impl->threads.emplace_back([p = impl.get(), ioc = impl->iocs[i].get()] { p->Run(ioc); });
  }
  impl->accept_thread = std::thread([p = impl.get()] { p->Run(&p->accept_ioc); });
  return std::unique_ptr<Server>(new Server(std::move(impl)));
}

Server::Server(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Server::~Server() { Shutdown(); }

const std::string& Server::host() const { return impl_->host; }
uint16_t Server::port() const { return impl_->port; }

void Server::Shutdown() { impl_->Shutdown(); }

int Server::TEST_OpenConnections() const {
  return impl_->shared.open.load(std::memory_order_relaxed);
}

size_t Server::TEST_InflightBytes() const {
  return impl_->shared.inflight.load(std::memory_order_relaxed);
}

}  // namespace dynarock::api::http
