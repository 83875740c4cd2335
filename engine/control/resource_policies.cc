#include "engine/control/resource_policies.h"

#include <algorithm>
#include <utility>

#include "engine/schema/arns.h"
#include "engine/util/coding.h"

namespace dynarock {
namespace {

// Meta column family: "R" table id (4 bytes BE) slot -> StoredPolicy, where
// the slot is empty for the table's own policy and the stream's label for
// a stream's.
constexpr char kPolicyPrefix = 'R';
constexpr uint8_t kPolicyRecordVersion = 1;

std::string TableKeyPrefix(uint32_t table_id) {
  std::string key(1, kPolicyPrefix);
  PutFixed32BE(&key, table_id);
  return key;
}

// Messages as DynamoDB answered them (us-west-2, October 2026: the AWS
// controllers' API-quirks lab, findings DDB-TABLE-211..213; moto's
// AWS-verified tests of the resource policies for the revision messages).
constexpr std::string_view kInvalidPrefix = "One or more parameter values were invalid: ";

Status InvalidResourceArn(const std::string& arn) {
  return Status::Validation(std::string(kInvalidPrefix) + "Invalid resource Arn: " + arn);
}

Status NoPolicy(const std::string& arn) {
  return Status(ErrorCode::kPolicyNotFound,
                "Resource-based policy not found for the provided ResourceArn: " + arn);
}

Status RevisionMismatch(const std::string& expected, const std::string& table,
                        const std::string& current) {
  return Status(ErrorCode::kPolicyNotFound,
                "Resource-based policy not found for the provided ResourceArn: Requested "
                "update for policy with revision id " +
                    expected + ", but the policy associated to target table " + table +
                    " has revision id " + current + ".");
}

}  // namespace

void RemoveResourcePolicies(uint32_t table_id, WriteBatch* batch) {
  batch->DeleteRange(Cf::kMeta, TableKeyPrefix(table_id), TableKeyPrefix(table_id + 1));
}

std::string EncodeStoredPolicy(const StoredPolicy& p) {
  std::string out;
  RecordWriter w(&out);
  w.Byte(kPolicyRecordVersion);
  w.String(p.revision_id);
  w.String(p.policy);
  return out;
}

Result<StoredPolicy> DecodeStoredPolicy(std::string_view bytes) {
  RecordReader r(bytes);
  const uint8_t version = r.Byte();
  StoredPolicy p;
  p.revision_id = r.String();
  p.policy = r.String();
  if (!r.ok || version != kPolicyRecordVersion) {
    return Status::Corruption("bad resource policy record");
  }
  return p;
}

Result<std::string> ResourcePolicies::KeyOf(const Scope& scope, const std::string& arn,
                                            std::string* table_name) {
  if (!LooksLikeArn(arn)) {
    return Status::Validation(std::string(kInvalidPrefix) + "ARNs must start with 'arn:': " +
                              arn);
  }
  std::optional<DynamoDbArn> parsed = ParseArn(arn);
  if (!parsed || parsed->partition != "aws" || parsed->region != scope.region) {
    return InvalidResourceArn(arn);
  }
  if (parsed->account != scope.account) {
    return Status::Validation(
        "This action is only supported by accounts that match the resource owner\u2019s "
        "account.");
  }
  if (parsed->sub_type == "index") {
    return Status::Validation(std::string(kInvalidPrefix) +
                              "Invalid resource arn provided, only table or stream is "
                              "accepted. Provided resource arn: " +
                              arn);
  }
  if (!parsed->sub_type.empty() && parsed->sub_type != "stream") {
    return Status::Validation(std::string(kInvalidPrefix) +
                              "Provided Arn is not a DynamoDB resource " + arn);
  }
  DR_ASSIGN_OR_RETURN(auto table, tables_->FindOrNotFound(scope, parsed->table));
  *table_name = parsed->table;
  std::string key = TableKeyPrefix(table->id);
  if (parsed->sub_type == "stream") {
    if (table->desc.latest_stream_label.empty() ||
        parsed->sub_name != table->desc.latest_stream_label) {
      return Status::ResourceNotFound("Requested resource not found: Stream: " +
                                      parsed->sub_name + " not found for Table: " +
                                      parsed->table);
    }
    key += parsed->sub_name;
  }
  return key;
}

Result<std::optional<StoredPolicy>> ResourcePolicies::Load(const std::string& key) {
  DR_ASSIGN_OR_RETURN(std::optional<std::string> value, store_->Get(Cf::kMeta, key));
  if (!value) return std::optional<StoredPolicy>();
  DR_ASSIGN_OR_RETURN(StoredPolicy p, DecodeStoredPolicy(*value));
  return std::optional<StoredPolicy>(std::move(p));
}

std::string ResourcePolicies::NextRevision() {
  last_revision_millis_ = std::max(last_revision_millis_ + 1, clock_->NowMicros() / 1000);
  return std::to_string(last_revision_millis_);
}

Result<PutResourcePolicyResult> ResourcePolicies::Put(const PutResourcePolicyRequest& req) {
  std::string table_name;
  DR_ASSIGN_OR_RETURN(std::string key, KeyOf(req.scope, req.resource_arn, &table_name));
  MutexLock lock(&mu_);
  DR_ASSIGN_OR_RETURN(std::optional<StoredPolicy> current, Load(key));
  if (req.expected_revision_id) {
    const std::string& expected = *req.expected_revision_id;
    if (expected == kNoPolicyRevision) {
      if (current) {
        return Status(ErrorCode::kPolicyNotFound,
                      "Resource-based policy not found for the provided ResourceArn: "
                      "Requested policy update expecting none to be present for table " +
                          table_name + ", but a policy exists with revision id " +
                          current->revision_id + ".");
      }
    } else if (!current) {
      return NoPolicy(req.resource_arn);
    } else if (current->revision_id != expected) {
      return RevisionMismatch(expected, table_name, current->revision_id);
    }
  }
  // The same document again is a no-op with the same revision.
  if (current && current->policy == req.policy) return PutResourcePolicyResult{current->revision_id};
  StoredPolicy next{req.policy, NextRevision()};
  WriteBatch batch;
  batch.Put(Cf::kMeta, key, EncodeStoredPolicy(next));
  DR_RETURN_IF_ERROR(store_->Write(&batch));
  return PutResourcePolicyResult{std::move(next.revision_id)};
}

Result<GetResourcePolicyResult> ResourcePolicies::Get(const GetResourcePolicyRequest& req) {
  std::string table_name;
  DR_ASSIGN_OR_RETURN(std::string key, KeyOf(req.scope, req.resource_arn, &table_name));
  DR_ASSIGN_OR_RETURN(std::optional<StoredPolicy> current, Load(key));
  if (!current) return NoPolicy(req.resource_arn);
  return GetResourcePolicyResult{std::move(current->policy), std::move(current->revision_id)};
}

Result<DeleteResourcePolicyResult> ResourcePolicies::Delete(
    const DeleteResourcePolicyRequest& req) {
  std::string table_name;
  DR_ASSIGN_OR_RETURN(std::string key, KeyOf(req.scope, req.resource_arn, &table_name));
  MutexLock lock(&mu_);
  DR_ASSIGN_OR_RETURN(std::optional<StoredPolicy> current, Load(key));
  if (!current) return NoPolicy(req.resource_arn);
  if (req.expected_revision_id && *req.expected_revision_id != current->revision_id) {
    return RevisionMismatch(*req.expected_revision_id, table_name, current->revision_id);
  }
  WriteBatch batch;
  batch.Delete(Cf::kMeta, key);
  DR_RETURN_IF_ERROR(store_->Write(&batch));
  return DeleteResourcePolicyResult{std::move(current->revision_id)};
}

Status ResourcePolicies::AttachToNewTable(uint32_t table_id, const std::string& policy) {
  MutexLock lock(&mu_);
  WriteBatch batch;
  batch.Put(Cf::kMeta, TableKeyPrefix(table_id), EncodeStoredPolicy({policy, NextRevision()}));
  return store_->Write(&batch);
}

}  // namespace dynarock
