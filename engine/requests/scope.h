// engine/requests/scope.h
//
// Scope: which set of tables a request sees. Every engine request carries
// one; the api fills it from the caller's access key id and region.

#ifndef DYNAROCK_ENGINE_REQUESTS_SCOPE_H_
#define DYNAROCK_ENGINE_REQUESTS_SCOPE_H_

#include <string>
#include <string_view>

namespace dynarock {

// The AWS account id dynarock's ARNs name unless told another
// (api::ClientOptions::account_id, `dynarock serve --account-id`): the one
// AWS's own documentation uses in examples. Not 000000000000: no AWS account
// has that id, so an ARN naming it is another account's, and DynamoDB
// answers AccessDeniedException to it (engine/schema/arns.h).
inline constexpr std::string_view kDefaultAccountId = "123456789012";

// Whether `id` is an AWS account id: exactly 12 decimal digits.
inline bool IsAccountId(std::string_view id) {
  if (id.size() != 12) return false;
  for (char c : id) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// Which set of tables a request sees, and how their ARNs read. DynamoDB Local
// (and `dynarock serve` without --shared-db) gives each access key id +
// region its own set of tables; `ns` is that key, empty for the shared set.
struct Scope {
  std::string ns;
  std::string region = "ddblocal";
  std::string account{kDefaultAccountId};
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
