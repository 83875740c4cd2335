// engine/requests/scope.h
//
// Scope: which set of tables a request sees. Every engine request carries
// one; the api fills it from the caller's access key id and region.

#ifndef DYNAROCK_ENGINE_REQUESTS_SCOPE_H_
#define DYNAROCK_ENGINE_REQUESTS_SCOPE_H_

#include <string>

namespace dynarock {

// Which set of tables a request sees, and how their ARNs read. DynamoDB Local
// (and `dynarock serve` without --shared-db) gives each access key id +
// region its own set of tables; `ns` is that key, empty for the shared set.
struct Scope {
  std::string ns;
  std::string region = "ddblocal";
  std::string account = "000000000000";
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_SCOPE_H_
