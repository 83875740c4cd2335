// Engine's data plane: single-item reads and writes, Query and Scan,
// the batches, transactions and PartiQL. Each operation checks its request
// whole (engine/plan/*_requests.h), finds its table, then reads or writes
// through the read or write path, which meter and charge capacity.

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/expr/evaluate.h"
#include "engine/facade/engine_state.h"
#include "engine/index/index_entry.h"
#include "engine/keys/key_codec.h"
#include "engine/partiql/statement_runner.h"
#include "engine/schema/schema.h"
#include "engine/plan/batch_requests.h"
#include "engine/plan/item_requests.h"
#include "engine/plan/query_requests.h"
#include "engine/value/item_codec.h"
#include "engine/vector/vector_search.h"

namespace dynarock {
namespace {

// The key of a table or of one of its indexes, for the PartiQL planner.
partiql::KeyLookup KeyLookup(EngineParts& p, const Scope& scope) {
  return [&p, &scope](std::string_view table,
                      std::optional<std::string_view> index) -> Result<KeyDef> {
    DR_ASSIGN_OR_RETURN(std::shared_ptr<const TableInfo> info, p.tables.ForData(scope, table));
    if (!index) return info->key;
    const IndexInfo* found = info->FindIndex(*index);
    // PartiQL's words, unlike Query's, do not name the index.
    if (found == nullptr) {
      return Status::Validation("The table does not have the specified index");
    }
    return found->key;
  };
}

// How the transaction coordinator finds the tables of `scope`: a member of
// a multi-Region strongly consistent global table is refused, as DynamoDB
// does ("do not support transaction operations, and will return an error").
TransactionCoordinator::TableLookup TableLookup(EngineParts& p, const Scope& scope) {
  return [&p, &scope](std::string_view name) -> Result<std::shared_ptr<const TableInfo>> {
    DR_ASSIGN_OR_RETURN(std::shared_ptr<const TableInfo> table, p.tables.ForData(scope, name));
    DR_RETURN_IF_ERROR(p.strong->RefuseFeature(
        *table,
        "Transactions are not supported for multi-Region strongly consistent global tables"));
    return table;
  };
}

// The tail every single-item write shares: what it consumed, and its item
// collection's metrics when asked (tables with LSIs).
template <typename WriteResult>
Status FinishWrite(EngineParts& p, const TableInfo& table, Metering metering,
                   ReturnItemCollectionMetrics what, const AttributeValue& pk,
                   WriteResult* result) {
  result->consumed_capacity = std::move(metering.consumed);
  result->capacity_charges.push_back(std::move(metering.charge));
  DR_ASSIGN_OR_RETURN(result->item_collection_metrics,
                      CollectionMetrics(*p.indexes->writer(), table, what, pk));
  return Status::OK();
}

// One Query or Scan page, planned: the index must be readable, then the
// read path reads, meters and charges it, and the page is finished
// (filter, projection, LastEvaluatedKey).
Result<ReadPageResult> RunPage(EngineParts& p, const TableInfo& table,
                               const PreparedRead& prepared, const PageRequest& page_request,
                               PageKind kind, bool consistent_read) {
  DR_RETURN_IF_ERROR(p.indexes->CheckReadable(table, page_request.index));
  Metering metering;
  DR_ASSIGN_OR_RETURN(Page page, p.read_path.ReadPage(table, page_request, kind,
                                                      consistent_read, &metering));
  ReadPageResult result = FinishPage(table, prepared, std::move(page), page_request.index);
  result.consumed_capacity = std::move(metering.consumed);
  result.capacity_charges.push_back(std::move(metering.charge));
  return result;
}

// BatchWriteItem's answer from the per-request metering: consumed capacity
// summed per table over the requests applied, the throttled ones as
// UnprocessedItems.
BatchWriteItemResult BatchWriteResultOf(
    const BatchWriteItemRequest& req,
    const std::vector<std::shared_ptr<const TableInfo>>& tables,
    const std::vector<Metering>& metering, const std::vector<bool>& throttled) {
  BatchWriteItemResult result;
  size_t next = 0;
  for (size_t i = 0; i < req.request_items.size(); ++i) {
    const auto& [name, writes] = req.request_items[i];
    Metering table_metering;
    table_metering.consumed.table_name = name;
    table_metering.charge.table_id = tables[i]->id;
    std::vector<WriteRequest> unprocessed;
    for (size_t w = 0; w < writes.size(); ++w, ++next) {
      if (throttled[next]) {
        unprocessed.push_back(writes[w]);
        continue;
      }
      table_metering.Merge(metering[next]);
    }
    result.consumed_capacity.push_back(std::move(table_metering.consumed));
    result.capacity_charges.push_back(std::move(table_metering.charge));
    if (!unprocessed.empty()) {
      result.unprocessed_items.emplace_back(name, std::move(unprocessed));
    }
  }
  return result;
}

// ReturnItemCollectionMetrics = SIZE of a BatchWriteItem: each collection
// an applied request wrote, once, read after the batch (tables without
// LSIs have none).
Status AddBatchCollectionMetrics(EngineParts& p, const BatchWriteItemRequest& req,
                                 const std::vector<std::shared_ptr<const TableInfo>>& tables,
                                 const std::vector<bool>& throttled,
                                 BatchWriteItemResult* result) {
  size_t next = 0;
  for (size_t i = 0; i < req.request_items.size(); ++i) {
    const auto& [name, writes] = req.request_items[i];
    const TableInfo& table = *tables[i];
    std::vector<ItemCollectionMetrics> list;
    std::set<std::string> collections;
    for (size_t w = 0; w < writes.size(); ++w, ++next) {
      if (throttled[next] || !table.has_lsi()) continue;
      const Item& key = writes[w].put_item ? *writes[w].put_item : *writes[w].delete_key;
      const AttributeValue& pk = key.at(table.key.hash_name);
      if (!collections.insert(keys::ItemKey(table.id, pk, nullptr)).second) continue;
      DR_ASSIGN_OR_RETURN(std::optional<ItemCollectionMetrics> m,
                          CollectionMetrics(*p.indexes->writer(), table,
                                            ReturnItemCollectionMetrics::kSize, pk));
      if (m) list.push_back(std::move(*m));
    }
    if (!list.empty()) result->item_collection_metrics.emplace_back(name, std::move(list));
  }
  return Status::OK();
}

}  // namespace

// --- Single items -------------------------------------------------------------

Result<PutItemResult> Engine::PutItem(const PutItemRequest& req) {
  return Run([&](EngineParts& p) -> Result<PutItemResult> {
    DR_ASSIGN_OR_RETURN(const PreparedWrite write, PreparePutItem(req));
    DR_ASSIGN_OR_RETURN(auto table, p.tables.ForData(req.scope, req.table_name));
    DR_ASSIGN_OR_RETURN(PrimaryKey pk, KeyOfItem(table->key, req.item));
    DR_RETURN_IF_ERROR(CheckIndexKeys(*table, req.item));
    const std::string key = keys::ItemKey(table->id, *pk.hash, pk.range);
    Metering metering;
    PutItemResult result;
    if (!write.condition && req.return_values != ReturnValues::kAllOld) {
      // Nothing looks at the old item: the write path need not decode it.
      DR_RETURN_IF_ERROR(p.write_path.Put(*table, key, req.item, &metering));
    } else {
      DR_ASSIGN_OR_RETURN(
          std::optional<Item> old,
          p.write_path.Apply(
              *table, key,
              [&](const std::optional<Item>& stored) -> Result<ItemChange> {
                DR_RETURN_IF_ERROR(CheckCondition(write, stored));
                return Result<ItemChange>(ItemChange::Borrowed(req.item));
              },
              &metering));
      if (req.return_values == ReturnValues::kAllOld) result.attributes = std::move(old);
    }
    DR_RETURN_IF_ERROR(FinishWrite(p, *table, std::move(metering),
                                   req.return_item_collection_metrics, *pk.hash, &result));
    return result;
  });
}

Result<GetItemResult> Engine::GetItem(const GetItemRequest& req) {
  return Run([&](EngineParts& p) -> Result<GetItemResult> {
    DR_ASSIGN_OR_RETURN(const std::optional<expr::ProjectionExpression> projection,
                        PrepareGetItem(req));
    DR_ASSIGN_OR_RETURN(auto table, p.tables.ForData(req.scope, req.table_name));
    DR_ASSIGN_OR_RETURN(PrimaryKey pk, KeyOfKeyParameter(table->key, req.key));
    const std::string key = keys::ItemKey(table->id, *pk.hash, pk.range);
    GetItemResult result;
    Metering metering;
    DR_ASSIGN_OR_RETURN(std::optional<std::string> encoded,
                        p.read_path.GetItem(*table, key, req.consistent_read, &metering));
    result.consumed_capacity = std::move(metering.consumed);
    result.capacity_charges.push_back(std::move(metering.charge));
    if (!encoded) return result;
    if (req.encoded_item && !projection) {
      result.encoded_item = std::move(encoded);
      return result;
    }
    DR_ASSIGN_OR_RETURN(Item item, DecodeItem(*encoded));
    result.item = projection ? expr::ProjectItem(item, *projection) : std::move(item);
    return result;
  });
}

Result<DeleteItemResult> Engine::DeleteItem(const DeleteItemRequest& req) {
  return Run([&](EngineParts& p) -> Result<DeleteItemResult> {
    DR_ASSIGN_OR_RETURN(const PreparedWrite write, PrepareDeleteItem(req));
    DR_ASSIGN_OR_RETURN(auto table, p.tables.ForData(req.scope, req.table_name));
    DR_ASSIGN_OR_RETURN(PrimaryKey pk, KeyOfKeyParameter(table->key, req.key));
    const std::string key = keys::ItemKey(table->id, *pk.hash, pk.range);
    Metering metering;
    DR_ASSIGN_OR_RETURN(
        std::optional<Item> old,
        p.write_path.Apply(
            *table, key,
            [&](const std::optional<Item>& stored) -> Result<ItemChange> {
              DR_RETURN_IF_ERROR(CheckCondition(write, stored));
              return Result<ItemChange>(ItemChange{std::nullopt, false});
            },
            &metering));
    DeleteItemResult result;
    if (req.return_values == ReturnValues::kAllOld) result.attributes = std::move(old);
    DR_RETURN_IF_ERROR(FinishWrite(p, *table, std::move(metering),
                                   req.return_item_collection_metrics, *pk.hash, &result));
    return result;
  });
}

Result<UpdateItemResult> Engine::UpdateItem(const UpdateItemRequest& req) {
  return Run([&](EngineParts& p) -> Result<UpdateItemResult> {
    DR_ASSIGN_OR_RETURN(const PreparedWrite write, PrepareUpdateItem(req));
    DR_ASSIGN_OR_RETURN(auto table, p.tables.ForData(req.scope, req.table_name));
    DR_ASSIGN_OR_RETURN(PrimaryKey pk, KeyOfKeyParameter(table->key, req.key));
    if (write.update) DR_RETURN_IF_ERROR(CheckKeyNotUpdated(*write.update, table->key));
    const std::string key = keys::ItemKey(table->id, *pk.hash, pk.range);
    std::optional<Item> new_item;
    Metering metering;
    DR_ASSIGN_OR_RETURN(
        std::optional<Item> old,
        p.write_path.Apply(
            *table, key,
            [&](const std::optional<Item>& stored) -> Result<ItemChange> {
              DR_RETURN_IF_ERROR(CheckCondition(write, stored));
              DR_ASSIGN_OR_RETURN(new_item, UpdatedItem(write, req.key, stored));
              // An item that results is written even when nothing changed:
              // an update that leaves only the key still creates or keeps it.
              if (!new_item) return ItemChange{std::nullopt, /*unchanged=*/true};
              return ItemChange::Borrowed(*new_item);  // outlives the write
            },
            &metering));
    UpdateItemResult result;
    result.attributes = UpdateReturnValues(req.return_values, write, old, new_item);
    DR_RETURN_IF_ERROR(FinishWrite(p, *table, std::move(metering),
                                   req.return_item_collection_metrics, *pk.hash, &result));
    return result;
  });
}

// --- Query, Scan ----------------------------------------------------------------

Result<QueryResult> Engine::Query(const QueryRequest& req) {
  return Run([&](EngineParts& p) -> Result<QueryResult> {
    DR_ASSIGN_OR_RETURN(const PreparedRead prepared, PrepareQuery(req));
    DR_ASSIGN_OR_RETURN(auto table, p.tables.ForData(req.scope, req.table_name));
    DR_ASSIGN_OR_RETURN(const PageRequest page_request, PlanQuery(*table, req, prepared));
    return RunPage(p, *table, prepared, page_request, PageKind::kQuery,
                   req.read.consistent_read);
  });
}

Result<ScanResult> Engine::Scan(const ScanRequest& req) {
  return Run([&](EngineParts& p) -> Result<ScanResult> {
    DR_ASSIGN_OR_RETURN(const PreparedRead prepared, PrepareScan(req));
    DR_ASSIGN_OR_RETURN(auto table, p.tables.ForData(req.scope, req.table_name));
    DR_ASSIGN_OR_RETURN(const PageRequest page_request, PlanScan(*table, req, prepared));
    return RunPage(p, *table, prepared, page_request, PageKind::kScan,
                   req.read.consistent_read);
  });
}

Result<SearchVectorsResult> Engine::SearchVectors(const SearchVectorsRequest& req) {
  return Run([&](EngineParts& p) -> Result<SearchVectorsResult> {
    DR_RETURN_IF_ERROR(vector::CheckSearchRequest(req));
    DR_ASSIGN_OR_RETURN(auto table, p.tables.ForData(req.scope, req.table_name));
    const IndexInfo* index = table->FindIndex(req.index_name);
    if (index == nullptr || !index->vector) {
      // Documented (Troubleshooting vector indexes).
      return Status::Validation("The table does not have the specified index: " +
                                req.index_name);
    }
    if (p.indexes->propagator()->Backfilling(index->id)) {
      return Status::Validation("Cannot search backfilling vector index: " + req.index_name);
    }
    return vector::Search(req, *table, *index, p.indexes->vector_graphs(), *p.store);
  });
}

// --- Batches ----------------------------------------------------------------------

Result<BatchGetItemResult> Engine::BatchGetItem(const BatchGetItemRequest& req) {
  return Run([&](EngineParts& p) -> Result<BatchGetItemResult> {
    DR_ASSIGN_OR_RETURN(const PreparedBatchGet projections, PrepareBatchGetItem(req));
    // Every table and every key is checked before anything is read.
    std::vector<std::shared_ptr<const TableInfo>> tables;
    std::vector<std::vector<std::string>> item_keys;
    for (const auto& [name, t] : req.request_items) {
      DR_ASSIGN_OR_RETURN(auto table, p.tables.ForData(req.scope, name));
      std::vector<std::string>& keys = item_keys.emplace_back();
      for (const Item& key : t.keys) {
        DR_ASSIGN_OR_RETURN(PrimaryKey pk, KeyOfKeyParameter(table->key, key));
        keys.push_back(keys::ItemKey(table->id, *pk.hash, pk.range));
      }
      tables.push_back(std::move(table));
    }
    return p.read_path.BatchGet(req, tables, item_keys, projections);
  });
}

Result<BatchWriteItemResult> Engine::BatchWriteItem(const BatchWriteItemRequest& req) {
  return Run([&](EngineParts& p) -> Result<BatchWriteItemResult> {
    DR_RETURN_IF_ERROR(PrepareBatchWriteItem(req));
    std::vector<std::shared_ptr<const TableInfo>> tables;
    for (const auto& [name, writes] : req.request_items) {
      DR_ASSIGN_OR_RETURN(auto table, p.tables.ForData(req.scope, name));
      tables.push_back(std::move(table));
    }
    std::vector<WritePath::ItemWrite> item_writes;
    std::set<std::string> seen;  // storage keys carry the table id
    for (size_t i = 0; i < req.request_items.size(); ++i) {
      for (const WriteRequest& w : req.request_items[i].second) {
        DR_ASSIGN_OR_RETURN(std::string key, StorageKeyOfWrite(*tables[i], w));
        if (!seen.insert(key).second) return DuplicateItemKeys();
        // The request outlives the writes: its items are written uncopied.
        const Item* new_item = w.put_item ? &*w.put_item : nullptr;
        item_writes.push_back(
            {tables[i].get(), std::move(key),
             [new_item](const std::optional<Item>&) -> Result<ItemChange> {
               if (new_item == nullptr) return ItemChange{std::nullopt, false};
               return ItemChange::Borrowed(*new_item);
             }});
      }
    }
    // With throttling on, the refused requests are left out and come back as
    // UnprocessedItems; the call fails only when every request was refused.
    std::vector<Metering> metering;
    std::vector<bool> throttled;
    DR_RETURN_IF_ERROR(p.write_path.ApplyMany(item_writes, &metering, &throttled).status());
    BatchWriteItemResult result = BatchWriteResultOf(req, tables, metering, throttled);
    if (req.return_item_collection_metrics == ReturnItemCollectionMetrics::kSize) {
      DR_RETURN_IF_ERROR(AddBatchCollectionMetrics(p, req, tables, throttled, &result));
    }
    return result;
  });
}

// --- Transactions and PartiQL ----------------------------------------------

Result<TransactWriteItemsResult> Engine::TransactWriteItems(
    const TransactWriteItemsRequest& req) {
  return Run([&](EngineParts& p) {
    return p.transactions.Write(req, TableLookup(p, req.scope));
  });
}

Result<TransactGetItemsResult> Engine::TransactGetItems(const TransactGetItemsRequest& req) {
  return Run([&](EngineParts& p) { return p.transactions.Get(req, TableLookup(p, req.scope)); });
}

// A statement runs as the engine's own operations (each through the gate,
// which this thread is already inside), so PartiQL adds no due work of its
// own.
Result<ExecuteStatementResult> Engine::ExecuteStatement(
    const ExecuteStatementRequest& req) {
  return RunWithoutDueWork([&](EngineParts& p) {
    return RunExecuteStatement(*this, KeyLookup(p, req.scope), p.plan_cache, req);
  });
}

Result<BatchExecuteStatementResult> Engine::BatchExecuteStatement(
    const BatchExecuteStatementRequest& req) {
  return RunWithoutDueWork([&](EngineParts& p) {
    return RunBatchExecuteStatement(*this, KeyLookup(p, req.scope), p.plan_cache, req);
  });
}

Result<ExecuteTransactionResult> Engine::ExecuteTransaction(
    const ExecuteTransactionRequest& req) {
  return RunWithoutDueWork([&](EngineParts& p) {
    return RunExecuteTransaction(*this, KeyLookup(p, req.scope), p.plan_cache, req);
  });
}

}  // namespace dynarock
