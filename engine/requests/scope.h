// engine/requests/scope.h
//
// Scope: which set of tables a request sees. Every engine request carries
// one; the api fills it from the caller's access key id and region.

#ifndef DYNAROCK_ENGINE_REQUESTS_SCOPE_H_
#define DYNAROCK_ENGINE_REQUESTS_SCOPE_H_

#include <string>
#include <string_view>

namespace dynarock {

// Which set of tables a request sees, and how their ARNs read. DynamoDB Local
// (and `dynarock serve` without --shared-db) gives each access key id +
// region its own set of tables; `ns` is that key, empty for the shared set.
struct Scope {
  std::string ns;
  std::string region = "ddblocal";
  std::string account = "000000000000";
  // The caller's access key id: with `region` it names `ns`
  // (NamespaceFor); empty for unsigned calls. Global tables find a table's
  // replicas in the namespaces of the same key in other Regions.
  std::string access_key;
};

// DynamoDB Local's convention, kept by `dynarock serve` without --shared-db:
// every access key id + region has its own tables, "<key>_<region>".
inline std::string NamespaceFor(std::string_view access_key, std::string_view region) {
  std::string ns(access_key);
  ns.push_back('_');
  ns.append(region);
  return ns;
}

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_SCOPE_H_
