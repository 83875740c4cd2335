#include "engine/transactions/transactions.h"

#include <xxhash.h>

#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "engine/expr/evaluate.h"
#include "engine/index/index_entry.h"
#include "engine/keys/key_codec.h"
#include "engine/schema/schema.h"
#include "engine/plan/item_requests.h"
#include "engine/pages/read_metering.h"
#include "engine/value/item_codec.h"
#include "engine/value/item_size.h"

namespace dynarock {
namespace {

using Kind = TransactWriteAction::Kind;

// --- Messages ---------------------------------------------------------------

// The TransactItems list's length, as DynamoDB's model constrains it.
Status ActionCountError(size_t count) {
  if (count == 0) {
    return Status::Validation(
        "1 validation error detected: Value '[]' at 'transactItems' failed to "
        "satisfy constraint: Member must have length greater than or equal "
        "to 1");
  }
  return Status::Validation(
      "1 validation error detected: Value at 'transactItems' failed to "
      "satisfy constraint: Member must have length less than or equal to " +
      std::to_string(kMaxTransactionActions));
}

// Alternator's test_transact_write_items_put_5MB, run against DynamoDB,
// matches "size cannot exceed" and says DynamoDB calls it the "transaction
// payload"; the rest of the wording is ours (docs/compatibility.md).
Status TransactionTooLarge() {
  return Status::Validation("Transaction payload size cannot exceed 4 MB");
}

Status MultipleOperationsOnOneItem() {
  return Status::Validation(
      "Transaction request cannot include multiple operations on one item");
}

// The members DynamoDB's model requires of an action (the api's shape check
// reports them first; this is for engine callers).
Status CheckRequiredMembers(const TransactWriteAction& a, size_t i) {
  auto missing = [i](std::string_view path) {
    return Status::Validation("1 validation error detected: Value null at "
                              "'transactItems." + std::to_string(i + 1) +
                              ".member." + std::string(path) +
                              "' failed to satisfy constraint: Member must not "
                              "be null");
  };
  if (a.kind == Kind::kConditionCheck && !a.condition_expression) {
    return missing("conditionCheck.conditionExpression");
  }
  if (a.kind == Kind::kUpdate && !a.update_expression) {
    return missing("update.updateExpression");
  }
  return Status::OK();
}

CancellationReason ConflictReason() {
  return CancellationReason{"TransactionConflict",
                            "Transaction is ongoing for the item", nullptr};
}

// --- One action, checked ------------------------------------------------------

struct PreparedAction {
  PreparedWrite write;
  std::shared_ptr<const TableInfo> table;
  std::string item_key;
  const AttributeValue* pk = nullptr;  // into the request's item or key
  std::optional<CancellationReason> failed;  // a key that cannot be used
};

// The single-item request an action is checked as, so that its
// expressions get exactly the messages PutItem / UpdateItem / DeleteItem
// give (a ConditionCheck is checked as a conditional DeleteItem).
Result<PreparedWrite> PrepareAction(const Scope& scope,
                                    const TransactWriteAction& a) {
  WriteCondition condition;
  condition.condition_expression = a.condition_expression;
  condition.return_values_on_condition_check_failure =
      a.return_values_on_condition_check_failure;
  switch (a.kind) {
    case Kind::kPut: {
      PutItemRequest r;
      r.scope = scope;
      r.table_name = a.table_name;
      r.item = a.item;
      r.condition = std::move(condition);
      r.expression_attribute_names = a.expression_attribute_names;
      r.expression_attribute_values = a.expression_attribute_values;
      return PreparePutItem(r);
    }
    case Kind::kUpdate: {
      UpdateItemRequest r;
      r.scope = scope;
      r.table_name = a.table_name;
      r.key = a.key;
      r.update_expression = a.update_expression;
      r.condition = std::move(condition);
      r.expression_attribute_names = a.expression_attribute_names;
      r.expression_attribute_values = a.expression_attribute_values;
      return PrepareUpdateItem(r);
    }
    case Kind::kDelete:
    case Kind::kConditionCheck: {
      DeleteItemRequest r;
      r.scope = scope;
      r.table_name = a.table_name;
      r.key = a.key;
      r.condition = std::move(condition);
      r.expression_attribute_names = a.expression_attribute_names;
      r.expression_attribute_values = a.expression_attribute_values;
      return PrepareDeleteItem(r);
    }
  }
  return Status::Internal("unknown transaction action");
}

// The bytes an action brings to the transaction's 4 MB: its item or key
// and its expression attribute values.
int64_t ActionBytes(const TransactWriteAction& a) {
  int64_t bytes = ItemSize(a.kind == Kind::kPut ? a.item : a.key);
  if (a.expression_attribute_values) {
    Item values;
    for (const auto& [name, v] : *a.expression_attribute_values) values[name] = v;
    bytes += ItemSize(values);
  }
  return bytes;
}

// The table's key of the action's item, and (Put, Update) the checks a
// single-item write runs on it; a failure is the action's ValidationError.
Status ResolveKey(const TransactWriteAction& a, PreparedAction* p) {
  const TableInfo& table = *p->table;
  PrimaryKey pk;
  if (a.kind == Kind::kPut) {
    DR_ASSIGN_OR_RETURN(pk, KeyOfItem(table.key, a.item));
    DR_RETURN_IF_ERROR(CheckIndexKeys(table, a.item));
  } else {
    DR_ASSIGN_OR_RETURN(pk, KeyOfKeyParameter(table.key, a.key));
    if (a.kind == Kind::kUpdate && p->write.update) {
      DR_RETURN_IF_ERROR(CheckKeyNotUpdated(*p->write.update, table.key));
    }
  }
  p->pk = pk.hash;
  p->item_key = keys::ItemKey(table.id, *pk.hash, pk.range);
  return Status::OK();
}

// The mutation WritePath runs for the action, under the item's lock.
ItemMutation MutationOf(const TransactWriteAction& a, const PreparedWrite& w) {
  switch (a.kind) {
    case Kind::kPut:
      return [&a, &w](const std::optional<Item>& stored) -> Result<ItemChange> {
        DR_RETURN_IF_ERROR(CheckCondition(w, stored));
        return ItemChange::Borrowed(a.item);
      };
    case Kind::kDelete:
      return [&w](const std::optional<Item>& stored) -> Result<ItemChange> {
        DR_RETURN_IF_ERROR(CheckCondition(w, stored));
        return ItemChange{std::nullopt, false};
      };
    case Kind::kConditionCheck:
      return [&w](const std::optional<Item>& stored) -> Result<ItemChange> {
        DR_RETURN_IF_ERROR(CheckCondition(w, stored));
        return ItemChange{std::nullopt, /*unchanged=*/true};
      };
    case Kind::kUpdate:
      return [&a, &w](const std::optional<Item>& stored) -> Result<ItemChange> {
        DR_RETURN_IF_ERROR(CheckCondition(w, stored));
        DR_ASSIGN_OR_RETURN(std::optional<Item> new_item,
                            UpdatedItem(w, a.key, stored));
        if (!new_item) return ItemChange{std::nullopt, /*unchanged=*/true};
        return ItemChange{std::move(new_item), false};
      };
  }
  return nullptr;
}

// Per table in order of first appearance: `metering[i]` summed over the
// actions on it.
void SumPerTable(const std::vector<const TableInfo*>& tables,
                 const std::vector<std::string>& names,
                 const std::vector<Metering>& metering,
                 std::vector<ConsumedCapacity>* consumed,
                 std::vector<CapacityCharge>* charges) {
  std::vector<Metering> sums;
  std::map<uint32_t, size_t> slot;
  for (size_t i = 0; i < tables.size(); ++i) {
    auto [it, added] = slot.emplace(tables[i]->id, sums.size());
    if (added) {
      Metering& m = sums.emplace_back();
      m.consumed.table_name = names[i];
      m.charge.table_id = tables[i]->id;
    }
    if (i < metering.size()) sums[it->second].Merge(metering[i]);
  }
  for (Metering& m : sums) {
    consumed->push_back(std::move(m.consumed));
    charges->push_back(std::move(m.charge));
  }
}

void AppendField(std::string_view s, std::string* out) {
  const uint32_t n = static_cast<uint32_t>(s.size());
  out->append(reinterpret_cast<const char*>(&n), sizeof(n));
  out->append(s);
}

void AppendOptionalField(const std::optional<std::string>& s, std::string* out) {
  out->push_back(s ? '1' : '0');
  if (s) AppendField(*s, out);
}

}  // namespace

std::optional<CancellationReason> ReasonFor(const Status& status) {
  switch (status.code()) {
    case ErrorCode::kOk:
      return CancellationReason{};
    case ErrorCode::kConditionalCheckFailed: {
      CancellationReason r{"ConditionalCheckFailed",
                           "The conditional request failed", nullptr};
      if (status.item() != nullptr) {
        r.item = std::make_shared<const Item>(*status.item());
      }
      return r;
    }
    case ErrorCode::kValidation:
      return CancellationReason{"ValidationError", status.message(), nullptr};
    case ErrorCode::kItemCollectionSizeLimitExceeded:
      return CancellationReason{"ItemCollectionSizeLimitExceeded",
                                "Collection size exceeded", nullptr};
    case ErrorCode::kTransactionConflict:
      return ConflictReason();
    case ErrorCode::kProvisionedThroughputExceeded:
      return CancellationReason{"ProvisionedThroughputExceeded",
                                status.message(), nullptr};
    case ErrorCode::kThrottling:
    case ErrorCode::kRequestLimitExceeded:
      return CancellationReason{"ThrottlingError", status.message(), nullptr};
    default:
      return std::nullopt;
  }
}

std::string TransactWriteFingerprint(const TransactWriteItemsRequest& req) {
  std::string bytes;
  std::string encoded;
  for (const TransactWriteAction& a : req.actions) {
    bytes.push_back(static_cast<char>(a.kind));
    AppendField(a.table_name, &bytes);
    encoded.clear();
    EncodeItem(a.item, &encoded);
    AppendField(encoded, &bytes);
    encoded.clear();
    EncodeItem(a.key, &encoded);
    AppendField(encoded, &bytes);
    AppendOptionalField(a.update_expression, &bytes);
    AppendOptionalField(a.condition_expression, &bytes);
    bytes.push_back(a.expression_attribute_names ? '1' : '0');
    if (a.expression_attribute_names) {
      for (const auto& [k, v] : *a.expression_attribute_names) {
        AppendField(k, &bytes);
        AppendField(v, &bytes);
      }
    }
    bytes.push_back(a.expression_attribute_values ? '1' : '0');
    if (a.expression_attribute_values) {
      Item values;
      for (const auto& [k, v] : *a.expression_attribute_values) values[k] = v;
      encoded.clear();
      EncodeItem(values, &encoded);
      AppendField(encoded, &bytes);
    }
    bytes.push_back(static_cast<char>(a.return_values_on_condition_check_failure));
  }
  bytes.push_back(static_cast<char>(req.return_item_collection_metrics));
  const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  char hex[33];
  std::snprintf(hex, sizeof(hex), "%016llx%016llx",
                static_cast<unsigned long long>(h.high64),
                static_cast<unsigned long long>(h.low64));
  return std::string(hex, 32);
}

namespace {

using TableLookup = TransactionCoordinator::TableLookup;

// Step 1 of TransactWriteItems: the request checked whole before anything
// is read (each action's members, the total size, the tables, each key,
// one action per item); a key that fails cancels the transaction.
Result<std::vector<PreparedAction>> PrepareWrite(const TransactWriteItemsRequest& req,
                                                 const TableLookup& lookup) {
  const size_t n = req.actions.size();
  if (n == 0 || n > kMaxTransactionActions) return ActionCountError(n);
  std::vector<PreparedAction> prepared(n);
  int64_t bytes = 0;
  for (size_t i = 0; i < n; ++i) {
    DR_RETURN_IF_ERROR(CheckRequiredMembers(req.actions[i], i));
    DR_ASSIGN_OR_RETURN(prepared[i].write, PrepareAction(req.scope, req.actions[i]));
    bytes += ActionBytes(req.actions[i]);
  }
  if (bytes > kMaxTransactionBytes) return TransactionTooLarge();
  for (size_t i = 0; i < n; ++i) {
    DR_ASSIGN_OR_RETURN(prepared[i].table, lookup(req.actions[i].table_name));
  }
  bool cancelled = false;
  std::set<std::string> seen;
  for (size_t i = 0; i < n && !cancelled; ++i) {
    // DynamoDB stops at the first action whose key fails: the later ones
    // answer None (scylladb test_transact.py
    // test_transact_write_cancellation_reasons_validationerror).
    Status key = ResolveKey(req.actions[i], &prepared[i]);
    if (!key.ok()) {
      prepared[i].failed = ReasonFor(key);
      cancelled = true;
      continue;
    }
    if (!seen.insert(prepared[i].item_key).second) {
      return MultipleOperationsOnOneItem();
    }
  }
  if (cancelled) {
    std::vector<CancellationReason> reasons(n);
    for (size_t i = 0; i < n; ++i) {
      if (prepared[i].failed) reasons[i] = *prepared[i].failed;
    }
    return Status::TransactionCanceled(std::move(reasons));
  }
  return prepared;
}

// ReturnItemCollectionMetrics SIZE: per table with LSIs, each collection
// written, once, after the write.
Status AddCollectionMetrics(const TransactWriteItemsRequest& req,
                            const std::vector<PreparedAction>& prepared,
                            const IndexWriter& indexes, TransactWriteItemsResult* out) {
  std::map<std::string, size_t> slot;
  std::set<std::pair<uint32_t, std::string>> collections;
  for (size_t i = 0; i < prepared.size(); ++i) {
    const TableInfo& table = *prepared[i].table;
    const std::string& name = req.actions[i].table_name;
    if (req.actions[i].kind == Kind::kConditionCheck) continue;
    if (!collections.emplace(table.id, keys::ItemKey(table.id, *prepared[i].pk, nullptr))
             .second) {
      continue;
    }
    DR_ASSIGN_OR_RETURN(std::optional<ItemCollectionMetrics> m,
                        CollectionMetrics(indexes, table,
                                          ReturnItemCollectionMetrics::kSize,
                                          *prepared[i].pk));
    if (!m) continue;
    auto [it, added] = slot.emplace(name, out->item_collection_metrics.size());
    if (added) out->item_collection_metrics.emplace_back(name, std::vector<ItemCollectionMetrics>());
    out->item_collection_metrics[it->second].second.push_back(std::move(*m));
  }
  return Status::OK();
}

// Steps 3 and 4: the items marked for the transaction's duration, every
// condition evaluated and every change staged in one batch; a failed
// condition or a marked item cancels the transaction.
Result<TransactWriteItemsResult> ApplyPrepared(const TransactWriteItemsRequest& req,
                                               const std::vector<PreparedAction>& prepared,
                                               ItemLocks* locks, WritePath* writes,
                                               const IndexWriter& indexes) {
  const size_t n = prepared.size();
  std::vector<std::string> item_keys;
  item_keys.reserve(n);
  for (const PreparedAction& p : prepared) item_keys.push_back(p.item_key);
  std::vector<size_t> held = locks->TryMark(item_keys);
  if (!held.empty()) {
    std::vector<CancellationReason> reasons(n);
    for (size_t i : held) reasons[i] = ConflictReason();
    return Status::TransactionCanceled(std::move(reasons));
  }
  struct Unmark {
    ItemLocks* locks;
    const std::vector<std::string>& keys;
    ~Unmark() { locks->Unmark(keys); }
  } unmark{locks, item_keys};

  std::vector<WritePath::ItemWrite> item_writes;
  item_writes.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    item_writes.push_back({prepared[i].table.get(), prepared[i].item_key,
                           MutationOf(req.actions[i], prepared[i].write)});
  }
  std::vector<Metering> metering;
  std::vector<Status> statuses;
  ApplyManyOptions options;
  options.transactional = true;
  options.unit_factor = kTransactionUnitFactor;
  options.statuses = &statuses;
  Result<std::vector<std::optional<Item>>> applied =
      writes->ApplyMany(item_writes, &metering, nullptr, options);
  if (!applied.ok()) {
    std::vector<CancellationReason> reasons(n);
    bool any = false;
    for (size_t i = 0; i < statuses.size(); ++i) {
      std::optional<CancellationReason> r = ReasonFor(statuses[i]);
      if (!r) return statuses[i];  // a storage error, not a cancellation
      any = any || !statuses[i].ok();
      reasons[i] = std::move(*r);
    }
    if (!any) return applied.status();
    return Status::TransactionCanceled(std::move(reasons));
  }

  TransactWriteItemsResult out;
  std::vector<const TableInfo*> tables;
  std::vector<std::string> names;
  for (size_t i = 0; i < n; ++i) {
    tables.push_back(prepared[i].table.get());
    names.push_back(req.actions[i].table_name);
  }
  SumPerTable(tables, names, metering, &out.consumed_capacity, &out.capacity_charges);
  if (req.return_item_collection_metrics == ReturnItemCollectionMetrics::kSize) {
    DR_RETURN_IF_ERROR(AddCollectionMetrics(req, prepared, indexes, &out));
  }
  return out;
}

}  // namespace

Result<TransactWriteItemsResult> TransactionCoordinator::Write(
    const TransactWriteItemsRequest& req, const TableLookup& lookup) {
  DR_ASSIGN_OR_RETURN(std::vector<PreparedAction> prepared, PrepareWrite(req, lookup));
  // 2. Idempotency.
  const bool has_token = req.client_request_token.has_value();
  if (has_token) {
    IdempotencyCache::Completed replay;
    bool replayed = false;
    DR_RETURN_IF_ERROR(idempotency_.Begin(req.scope.ns, *req.client_request_token,
                                          TransactWriteFingerprint(req), &replay,
                                          &replayed));
    if (replayed) return Replay(std::move(replay), lookup);
  }
  Result<TransactWriteItemsResult> result =
      ApplyPrepared(req, prepared, locks_, writes_, *indexes_);
  if (has_token) {
    if (result.ok()) {
      IdempotencyCache::Completed completed;
      completed.result = *result;
      for (size_t i = 0; i < prepared.size(); ++i) {
        completed.items.emplace_back(req.actions[i].table_name, prepared[i].item_key);
      }
      idempotency_.Finish(req.scope.ns, *req.client_request_token,
                          std::move(completed));
    } else {
      idempotency_.Abandon(req.scope.ns, *req.client_request_token);
    }
  }
  return result;
}

Result<TransactWriteItemsResult> TransactionCoordinator::Replay(
    IdempotencyCache::Completed completed, const TableLookup& lookup) {
  // DynamoDB: a repeat "returns the number of read capacity units consumed
  // in reading the item". Each item is read (strongly consistent) and
  // charged; nothing is written.
  TransactWriteItemsResult out;
  out.replayed = true;
  out.item_collection_metrics = std::move(completed.result.item_collection_metrics);
  std::vector<const TableInfo*> tables;
  std::vector<std::string> names;
  std::vector<Metering> metering;
  std::vector<std::shared_ptr<const TableInfo>> keep;
  for (const auto& [name, item_key] : completed.items) {
    DR_ASSIGN_OR_RETURN(std::shared_ptr<const TableInfo> table, lookup(name));
    DR_ASSIGN_OR_RETURN(std::optional<Item> item, ReadItem(*store_, item_key));
    Metering m = MeterItemRead(*table, item_key, item ? ItemSize(*item) : 0,
                               /*consistent_read=*/true);
    throughput_->Charge(m.charge);
    tables.push_back(table.get());
    names.push_back(name);
    metering.push_back(std::move(m));
    keep.push_back(std::move(table));
  }
  SumPerTable(tables, names, metering, &out.consumed_capacity,
              &out.capacity_charges);
  return out;
}

Result<TransactGetItemsResult> TransactionCoordinator::Get(
    const TransactGetItemsRequest& req, const TableLookup& lookup) {
  const size_t n = req.actions.size();
  if (n == 0 || n > kMaxTransactionActions) return ActionCountError(n);
  std::vector<std::optional<expr::ProjectionExpression>> projections(n);
  for (size_t i = 0; i < n; ++i) {
    const TransactGetAction& a = req.actions[i];
    GetItemRequest r;
    r.scope = req.scope;
    r.table_name = a.table_name;
    r.key = a.key;
    r.projection_expression = a.projection_expression;
    r.expression_attribute_names = a.expression_attribute_names;
    DR_ASSIGN_OR_RETURN(projections[i], PrepareGetItem(r));
  }
  std::vector<std::shared_ptr<const TableInfo>> tables(n);
  std::vector<std::string> item_keys(n);
  std::set<std::string> seen;
  for (size_t i = 0; i < n; ++i) {
    DR_ASSIGN_OR_RETURN(tables[i], lookup(req.actions[i].table_name));
  }
  for (size_t i = 0; i < n; ++i) {
    // A key that fails is the action's ValidationError, as for writes
    // (nubo-db/dynamodb-conformance tier3 error-messages/transactGetItems).
    Result<PrimaryKey> pk = KeyOfKeyParameter(tables[i]->key, req.actions[i].key);
    if (!pk.ok()) {
      std::vector<CancellationReason> failed(n);
      failed[i] = *ReasonFor(pk.status());
      return Status::TransactionCanceled(std::move(failed));
    }
    item_keys[i] = keys::ItemKey(tables[i]->id, *pk->hash, pk->range);
    if (!seen.insert(item_keys[i]).second) return MultipleOperationsOnOneItem();
  }
  // An item a transaction is writing, or a throttled read, cancels all.
  std::vector<CancellationReason> reasons(n);
  bool cancelled = false;
  for (size_t i = 0; i < n; ++i) {
    if (locks_->IsMarked(item_keys[i])) {
      reasons[i] = ConflictReason();
      cancelled = true;
      continue;
    }
    Status admitted = reads_->Admit(*tables[i], nullptr,
                                    keys::HashOfKey(item_keys[i]),
                                    /*consistent_read=*/true);
    if (admitted.ok()) continue;
    std::optional<CancellationReason> r = ReasonFor(admitted);
    if (!r) return admitted;
    reasons[i] = std::move(*r);
    cancelled = true;
  }
  if (cancelled) return Status::TransactionCanceled(std::move(reasons));

  std::unique_ptr<StoreSnapshot> snapshot = store_->NewSnapshot();
  TransactGetItemsResult out;
  out.responses.resize(n);
  std::vector<Metering> metering;
  std::vector<const TableInfo*> table_ptrs;
  std::vector<std::string> names;
  for (size_t i = 0; i < n; ++i) {
    DR_ASSIGN_OR_RETURN(std::optional<std::string> bytes,
                        snapshot->Get(Cf::kItems, item_keys[i]));
    std::optional<Item> item;
    if (bytes) {
      DR_ASSIGN_OR_RETURN(Item decoded, DecodeItem(*bytes));
      item = std::move(decoded);
    }
    Metering m = MeterItemRead(*tables[i], item_keys[i], item ? ItemSize(*item) : 0,
                               /*consistent_read=*/true);
    m.Scale(kTransactionUnitFactor);
    throughput_->Charge(m.charge);
    metering.push_back(std::move(m));
    table_ptrs.push_back(tables[i].get());
    names.push_back(req.actions[i].table_name);
    if (item && projections[i]) item = expr::ProjectItem(*item, *projections[i]);
    out.responses[i] = std::move(item);
  }
  SumPerTable(table_ptrs, names, metering, &out.consumed_capacity,
              &out.capacity_charges);
  return out;
}

}  // namespace dynarock
