// api/http/server.h
//
// Server is the HTTP/1.1 endpoint that SDKs, the AWS CLI and tools talk to,
// as they talk to DynamoDB Local: keep-alive connections served by a pool of
// threads, each request answered by protocol.h's HandleRequest and thus by
// a Handler (api::Client::Call in `dynarock serve`).
//
// No input stops or stalls it: headers and bodies have size limits, idle
// and slow connections time out, malformed bytes get a 400 and a close, and
// connections and buffered request bytes beyond their limits get a 503.
// Shutdown() stops accepting, lets every request already received finish
// and be answered, closes the connections, and joins the threads; after it
// returns the Handler is never called again, so its owner can close the
// Engine behind it.
//
// Thread-safe. The Handler must outlive the Server.

#ifndef DYNAROCK_API_HTTP_SERVER_H_
#define DYNAROCK_API_HTTP_SERVER_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "api/http/protocol.h"
#include "engine/status.h"

namespace dynarock::api::http {

struct ServerOptions {
  // Address to listen on: an IPv4/IPv6 literal or a host name.
  std::string host = "127.0.0.1";
  // 0 picks a free port; Server::port() tells which.
  uint16_t port = 8000;
  // Threads serving connections (and running the Handler, which blocks on
  // the engine); 0 means DefaultServerThreads(the machine's cores). One
  // more thread accepts connections, so that handlers blocked on every
  // serving thread never keep a new connection from being accepted.
  int threads = 0;
  // Larger bodies are answered with 413 (see kMaxRequestBodyBytes).
  size_t max_body_bytes = kMaxRequestBodyBytes;
  // Request line plus headers; larger ones get a 400 and a close. DynamoDB
  // refuses more than 16 KB of either (alternator's test_manual_requests.py,
  // run against it); an SDK's request is about 1 KB.
  size_t max_header_bytes = 16 * 1024;
  // Bytes of request bodies buffered at once, over every connection: a
  // request that would pass it (by its Content-Length, or as its chunks
  // arrive) is answered 503 ServiceUnavailable and its connection closed.
  size_t max_inflight_bytes = size_t{512} << 20;
  // How long a connection may sit between requests (waiting for the first
  // byte of the next one) before it is closed.
  std::chrono::milliseconds idle_timeout{60'000};
  // How long a request's line and headers may take to arrive, from its
  // first byte; slower clients are dropped.
  std::chrono::milliseconds header_timeout{20'000};
  // How long a request's body may take to arrive, once its headers have;
  // and, separately, how long its response may take to be taken by the
  // client. Slower clients are dropped.
  std::chrono::milliseconds request_timeout{60'000};
  // How long Shutdown() waits for requests in flight before it cuts them.
  std::chrono::milliseconds shutdown_grace{10'000};
  // Connections served at once. One beyond it is answered 503
  // ServiceUnavailable and closed (a few at a time; beyond those, closed at
  // once).
  int max_connections = 4096;
  // Authentication (strict SigV4 verification, or none).
  ProtocolOptions protocol;
};

// The threads a Server runs when ServerOptions::threads is 0: four per core,
// at least 8 (`cores` 0, unknown, counts as one). More threads than cores,
// because handlers block on the engine (reads of the old item, the write
// mutex, the disk): with clients on the same cores, as an emulator's tests
// are, four per core served PutItem and GetItem 19-24 % faster than two
// (bench/README, issue 18's sixth pass).
int DefaultServerThreads(unsigned cores);

class Server {
 public:
  // Binds, listens and starts serving on background threads.
  // Errors: kIOError when the address cannot be resolved or bound (port in
  // use, permission denied).
  static Result<std::unique_ptr<Server>> Start(Handler handler,
                                               const ServerOptions& options);

  // Shuts down (see Shutdown) if that has not been done.
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // The address and port actually bound ("127.0.0.1", 8000).
  const std::string& host() const;
  uint16_t port() const;

  // Graceful stop, described above. Idempotent; blocks until done (at most
  // about options.shutdown_grace). REQUIRES: not called from a Handler.
  void Shutdown();

  // Connections open now; for tests and stats.
  int TEST_OpenConnections() const;
  // Bytes of request bodies reserved now (see max_inflight_bytes).
  size_t TEST_InflightBytes() const;

 private:
  struct Impl;
  explicit Server(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace dynarock::api::http

#endif  // DYNAROCK_API_HTTP_SERVER_H_
