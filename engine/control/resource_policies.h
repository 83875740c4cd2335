// engine/control/resource_policies.h
//
// ResourcePolicies answers PutResourcePolicy, GetResourcePolicy and
// DeleteResourcePolicy. A table and its latest stream each hold at most one
// policy (two independent slots, as in DynamoDB), stored with a revision id
// in a record of its own in the meta column family ("R" table id slot), not
// in the table record: the catalog record's version is untouched, and a
// backup (which keeps the table record) does not carry the policy, as
// DynamoDB documents for restored tables. DeleteTable removes the records
// in its batch (RemoveResourcePolicies). Policies are stored and returned,
// never enforced: dynarock has no IAM (docs/compatibility.md).
//
// Revision ids are the engine clock's milliseconds when the policy was
// attached, strictly increasing within a process; putting the document a
// slot already holds changes nothing and returns its revision, as
// DynamoDB's PutResourcePolicy is idempotent.
//
// Thread-safe: changes are serialized by one mutex, so an
// ExpectedRevisionId is compared and the record replaced atomically.

#ifndef DYNAROCK_ENGINE_CONTROL_RESOURCE_POLICIES_H_
#define DYNAROCK_ENGINE_CONTROL_RESOURCE_POLICIES_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "engine/clock.h"
#include "engine/requests/policy_requests.h"
#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/control/table_lifecycle.h"
#include "engine/util/mutex.h"

namespace dynarock {

// Adds the removal of every policy of table `table_id` (its own and its
// streams') to `batch`.
void RemoveResourcePolicies(uint32_t table_id, WriteBatch* batch);

// A stored policy: its document and revision id. The record encoding is
// exposed for its test.
struct StoredPolicy {
  std::string policy;
  std::string revision_id;
};
std::string EncodeStoredPolicy(const StoredPolicy& p);
// Errors: kCorruption.
Result<StoredPolicy> DecodeStoredPolicy(std::string_view bytes);

class ResourcePolicies {
 public:
  // No pointer is owned; all must outlive this.
  ResourcePolicies(Store* store, TableLifecycle* tables, Clock* clock)
      : store_(store), tables_(tables), clock_(clock) {}

  // Errors of all three, in this order, with DynamoDB's messages: kValidation
  // for an ARN that does not begin "arn:", is not DynamoDB's, names another
  // region or partition, another account, an index, or another kind of
  // resource; kResourceNotFound for a missing table or a stream label that
  // is not the table's latest stream.
  //
  // Put: also kPolicyNotFound when `expected_revision_id` is not the
  // current revision (kNoPolicyRevision: when a policy exists).
  Result<PutResourcePolicyResult> Put(const PutResourcePolicyRequest& req);
  // Also kPolicyNotFound when the resource has no policy.
  Result<GetResourcePolicyResult> Get(const GetResourcePolicyRequest& req);
  // Also kPolicyNotFound when it has none, or not the expected revision.
  Result<DeleteResourcePolicyResult> Delete(const DeleteResourcePolicyRequest& req);

  // Attaches `policy` to the table just created with id `table_id`
  // (CreateTable's ResourcePolicy). Errors: kIOError.
  Status AttachToNewTable(uint32_t table_id, const std::string& policy);

 private:
  // The record key of the policy the ARN names (after the checks above).
  Result<std::string> KeyOf(const Scope& scope, const std::string& arn,
                            std::string* table_name);
  Result<std::optional<StoredPolicy>> Load(const std::string& key);
  // A revision id later than every one handed out before. Caller holds mu_.
  std::string NextRevision() REQUIRES(mu_);

  Store* const store_;
  TableLifecycle* const tables_;
  Clock* const clock_;
  Mutex mu_;
  int64_t last_revision_millis_ GUARDED_BY(mu_) = 0;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_CONTROL_RESOURCE_POLICIES_H_
