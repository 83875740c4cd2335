// bench/http/noop_server.cc: the HTTP floor of run_http_bench.sh's ratios.
//
// dynarock's HTTP server (api/http/server.h: the same threads, parsing,
// SigV4 header parse, x-amz-crc32 and response head as `dynarock serve`)
// with a handler that does no work: every request that names an operation
// is answered 200 `{}`, before its body is looked at. run_http_bench.sh
// drives it with GetItem's and PutItem's own wrk scripts, so that the ratio
// "operation / no-op" also exists for the same requests from the same load
// generator (bodies read, scripts run), beside `GET /`'s.
//
//   noop_server PORT [THREADS]     # prints "listening on PORT", stops on SIGINT/SIGTERM

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "api/client.h"
#include "api/http/server.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: noop_server PORT [THREADS]\n");
    return 2;
  }
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);  // before any thread starts

  dynarock::api::http::ServerOptions options;
  options.port = static_cast<uint16_t>(std::atoi(argv[1]));
  options.threads = argc > 2 ? std::atoi(argv[2]) : 0;  // as `dynarock serve`
  auto server = dynarock::api::http::Server::Start(
      [](std::string_view, std::string_view, const dynarock::api::CallerIdentity&) {
        dynarock::api::Response response;
        response.body = "{}";
        return response;
      },
      options);
  if (!server.ok()) {
    std::fprintf(stderr, "noop_server: %s\n", server.status().message().c_str());
    return 1;
  }
  std::printf("listening on %u\n", static_cast<unsigned>((*server)->port()));
  std::fflush(stdout);
  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  (*server)->Shutdown();
  return 0;
}
