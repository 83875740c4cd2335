#include "engine/plan/batch_requests.h"

#include <utility>

#include "engine/expr/request_expressions.h"
#include "engine/keys/key_codec.h"
#include "engine/plan/item_requests.h"
#include "engine/schema/schema.h"
#include "engine/value/attribute_value_validation.h"

namespace dynarock {

namespace {

// --- DynamoDB's messages, one place each -----------------------------------
//
// Texts from the DynamoDB Local error table and mhart/dynalite's
// test/batchGetItem.js and test/batchWriteItem.js (recorded against
// DynamoDB): the 100-key and 25-request limits over all tables, duplicate
// keys, and the message DynamoDB gives a WriteRequest with neither (or
// both) of PutRequest and DeleteRequest, which it treats as a union like an
// AttributeValue.

Status TooManyKeys() {
  return Status::Validation(
      "Too many items requested for the BatchGetItem call");
}

Status TooManyWrites() {
  return Status::Validation(
      "Too many items requested for the BatchWriteItem call");
}

Status NotExactlyOneWriteRequest() {
  return Status::Validation(
      "Supplied AttributeValue has more than one datatypes set, must contain "
      "exactly one of the supported datatypes");
}

template <typename T>
const T* OrNull(const std::optional<T>& o) {
  return o.has_value() ? &*o : nullptr;
}

Status ValidateValues(const Item& item) {
  for (const auto& [name, value] : item) {
    DR_RETURN_IF_ERROR(ValidateAttributeValue(value));
  }
  return Status::OK();
}

}  // namespace

Status DuplicateItemKeys() {
  return Status::Validation("Provided list of item keys contains duplicates");
}

Status CheckParameterUse(const KeysAndAttributes& t) {
  return expr::CheckExpressionParameters(
      {{"ProjectionExpression", t.projection_expression.has_value()}},
      {{"AttributesToGet", t.attributes_to_get.has_value()}},
      t.expression_attribute_names.has_value(), /*values_present=*/false);
}

Result<PreparedBatchGet> PrepareBatchGetItem(const BatchGetItemRequest& req) {
  PreparedBatchGet out;
  size_t keys = 0;
  for (const auto& [table, t] : req.request_items) {
    DR_RETURN_IF_ERROR(CheckParameterUse(t));
    // A table's AttributesToGet and expressions are checked before its
    // keys: a duplicate name or an empty ProjectionExpression is reported
    // over duplicate keys (dynalite's batchGetItem tests, recorded against
    // DynamoDB).
    expr::RequestExpressions exprs(OrNull(t.expression_attribute_names),
                                   nullptr);
    std::optional<expr::ProjectionExpression> projection;
    if (t.attributes_to_get) {
      DR_ASSIGN_OR_RETURN(
          projection, PrepareProjection(std::nullopt, t.attributes_to_get, exprs));
    } else {
      DR_RETURN_IF_ERROR(exprs.CheckAttributeMaps());
      DR_ASSIGN_OR_RETURN(projection, PrepareProjection(t.projection_expression,
                                                        std::nullopt, exprs));
      DR_RETURN_IF_ERROR(exprs.CheckAllUsed());
    }
    for (size_t i = 0; i < t.keys.size(); ++i) {
      DR_RETURN_IF_ERROR(ValidateValues(t.keys[i]));
      // Keys compare as values: {"a":{"N":"1"}} and {"a":{"N":"1.0"}} are
      // the same key.
      for (size_t j = 0; j < i; ++j) {
        if (t.keys[j] == t.keys[i]) return DuplicateItemKeys();
      }
      if (++keys > kMaxBatchGetKeys) return TooManyKeys();
    }
    out.push_back(std::move(projection));
  }
  return out;
}

Status PrepareBatchWriteItem(const BatchWriteItemRequest& req) {
  size_t total = 0;
  for (const auto& [table, writes] : req.request_items) total += writes.size();
  if (total > kMaxBatchWriteRequests) return TooManyWrites();
  for (const auto& [table, writes] : req.request_items) {
    for (const WriteRequest& w : writes) {
      if (w.put_item.has_value() == w.delete_key.has_value()) {
        return NotExactlyOneWriteRequest();
      }
    }
    for (const WriteRequest& w : writes) {
      if (w.put_item) {
        DR_RETURN_IF_ERROR(ValidateItem(*w.put_item));
      } else {
        DR_RETURN_IF_ERROR(ValidateValues(*w.delete_key));
      }
    }
  }
  return Status::OK();
}

Result<std::string> StorageKeyOfWrite(const TableInfo& table,
                                      const WriteRequest& write) {
  Item key;
  if (write.put_item) {
    // The key attributes of the item, checked as a Key parameter: a missing
    // or mistyped one is a schema mismatch (not PutItem's "Missing the key").
    const Item& item = *write.put_item;
    for (const std::string* name :
         {&table.key.hash_name, OrNull(table.key.range_name)}) {
      if (name == nullptr) continue;
      auto it = item.find(*name);
      if (it != item.end()) key.emplace(it->first, it->second);
    }
  }
  const Item& key_param = write.put_item ? key : *write.delete_key;
  DR_ASSIGN_OR_RETURN(PrimaryKey pk, KeyOfKeyParameter(table.key, key_param));
  return keys::ItemKey(table.id, *pk.hash, pk.range);
}

}  // namespace dynarock
