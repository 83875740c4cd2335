// api/console/console_access.h
//
// Who may use the web console (`dynarock serve --console`) and what it may
// do. The console's page calls the server's own DynamoDB API, through
// POST /console/api/ (api/http/protocol.h routes it); unless the server was
// started with --console-write, only the operations that read are let
// through there, so that a page left open cannot change a table. Pure
// functions; thread-safe.

#ifndef DYNAROCK_API_CONSOLE_CONSOLE_ACCESS_H_
#define DYNAROCK_API_CONSOLE_CONSOLE_ACCESS_H_

#include <string_view>

namespace dynarock::api::console {

// --console off | on | any.
enum class ConsoleAccess {
  kOff,       // not served: /console/ is a 404 as any unknown path
  kLoopback,  // served to loopback peers (and, in strict mode, to signed calls)
  kAnyPeer,   // served to every peer
};

struct ConsoleOptions {
  ConsoleAccess access = ConsoleAccess::kOff;
  // --console-write: every operation; otherwise ReadsOnly ones.
  bool write = false;
};

// Whether `operation` (as api/dispatch names it: "Scan",
// "DynamoRock_20251121.DescribeCapacity", "DynamoDBStreams_20120810.DescribeStream")
// only reads: it changes no item, table, setting or stream position.
// GetRecords is not one (it advances what a stream's readers have read and
// counts against its read limit), nor is ExecuteStatement (PartiQL may write).
bool ReadsOnly(std::string_view operation);

// Whether the console may call `operation`.
inline bool ConsoleMayCall(const ConsoleOptions& options, std::string_view operation) {
  return options.write || ReadsOnly(operation);
}

// The message of the AccessDeniedException a refused call gets.
inline constexpr std::string_view kReadOnlyMessage =
    "The dynarock console is read-only: start the server with --console-write to let it write";

}  // namespace dynarock::api::console

#endif  // DYNAROCK_API_CONSOLE_CONSOLE_ACCESS_H_
