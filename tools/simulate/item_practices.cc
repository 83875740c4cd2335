// tools/simulate/item_practices.cc

#include "tools/simulate/item_practices.h"

#include <zlib.h>

#include <memory>

#include <nlohmann/json.hpp>

#include "api/metrics/cost_model.h"
#include "api/metrics/price_table.h"
#include "engine/clock.h"
#include "engine/engine.h"
#include "engine/value/item_size.h"

namespace dynarock::tools::simulate {
namespace {

// Forum-like text (compressible as real messages are): words drawn from a
// small vocabulary with a seeded generator.
std::string MessageText(int64_t bytes, uint64_t seed) {
  static const char* kWords[] = {
      "dynamodb", "table",  "partition", "the",   "a",     "capacity",
      "read",     "write",  "item",      "query", "index", "throughput",
      "is",       "of",     "and",       "to",    "we",    "reply",
      "thread",   "forum",  "message",   "how",   "why",   "size"};
  std::string out;
  uint64_t x = seed;
  while (static_cast<int64_t>(out.size()) < bytes) {
    x = Mix64(x);
    out += kWords[x % std::size(kWords)];
    out += (x >> 20) % 12 == 0 ? ". " : " ";
  }
  out.resize(static_cast<size_t>(bytes));
  return out;
}

Item Padded(Item item, const std::string& pad_name, int64_t bytes) {
  item[pad_name] = AttributeValue::S("");
  const int64_t size = ItemSize(item);
  if (size < bytes) {
    item[pad_name] = AttributeValue::S(std::string(bytes - size, 'x'));
  }
  return item;
}

Status Create(Engine& engine, const std::string& name) {
  CreateTableRequest req;
  req.table_name = name;
  req.key_schema = {{"Id", KeyType::kHash}};
  req.attribute_definitions = {{"Id", AttrType::kS}};
  req.billing_mode = BillingMode::kPayPerRequest;
  Result<TableDescription> r = engine.CreateTable(req);
  return r.ok() ? Status::OK() : r.status();
}

}  // namespace

Result<std::string> Deflate(const std::string& data) {
  uLongf size = compressBound(static_cast<uLong>(data.size()));
  std::string out(size, '\0');
  if (compress2(reinterpret_cast<Bytef*>(out.data()), &size,
                reinterpret_cast<const Bytef*>(data.data()),
                static_cast<uLong>(data.size()), 9) != Z_OK) {
    return Status::Internal("zlib compress2 failed");
  }
  out.resize(size);
  return out;
}

Result<std::string> Inflate(const std::string& data, size_t original_size) {
  std::string out(original_size, '\0');
  uLongf size = static_cast<uLongf>(original_size);
  if (uncompress(reinterpret_cast<Bytef*>(out.data()), &size,
                 reinterpret_cast<const Bytef*>(data.data()),
                 static_cast<uLong>(data.size())) != Z_OK ||
      size != original_size) {
    return Status::Internal("zlib uncompress failed");
  }
  return out;
}

namespace {

void AddStep(ItemPracticesReport* report, std::string practice, std::string operation,
             int64_t bytes, const Capacity& c, std::string note) {
  report->steps.push_back(PracticeStep{std::move(practice), std::move(operation), bytes,
                                       c.read_units, c.write_units, std::move(note)});
}

// 1. Vertical partitioning: price and availability updated in the whole
// catalog item vs in an item of their own.
Status AddVerticalPartitioning(Engine& engine, const ItemPracticesOptions& o,
                               ItemPracticesReport* report) {
  const std::string p = "vertical partitioning";
  Item whole = Padded(Item{{"Id", AttributeValue::S("21")},
                           {"Price", AttributeValue::S("5.00 USD")},
                           {"QuantityOnHand", AttributeValue::N(IntNumber(3750))}},
                      "Description", o.catalog_item_bytes);
  Item hot = Padded(Item{{"Id", AttributeValue::S("21")},
                         {"Price", AttributeValue::S("5.00 USD")},
                         {"QuantityOnHand", AttributeValue::N(IntNumber(3750))}},
                    "Pad", o.hot_part_bytes);
  for (auto& [table, item] : {std::pair<std::string, Item*>{"ProductCatalog", &whole},
                              std::pair<std::string, Item*>{"ProductAvailability", &hot}}) {
    PutItemRequest put;
    put.table_name = table;
    put.item = *item;
    if (auto r = engine.PutItem(put); !r.ok()) return r.status();
    UpdateItemRequest up;
    up.table_name = table;
    up.key = Item{{"Id", AttributeValue::S("21")}};
    up.update_expression = "SET QuantityOnHand = QuantityOnHand - :one";
    up.expression_attribute_values =
        ExpressionAttributeValues{{":one", AttributeValue::N(IntNumber(1))}};
    Result<UpdateItemResult> r = engine.UpdateItem(up);
    if (!r.ok()) return r.status();
    AddStep(report, p, "UpdateItem " + table + " (QuantityOnHand - 1)", ItemSize(*item),
        r.value().consumed_capacity.Total(),
        table == "ProductCatalog" ? "the whole item is rewritten"
                                  : "only the hot attributes' item");
  }
  return Status::OK();
}

// 2. Compressing a large attribute: the message as a String vs zlib in a
// Binary attribute.
Status AddCompression(Engine& engine, const ItemPracticesOptions& o,
                      ItemPracticesReport* report) {
  const std::string p = "compression (zlib -> B)";
  const std::string text = MessageText(o.message_bytes, o.seed);
  Result<std::string> packed = Deflate(text);
  if (!packed.ok()) return packed.status();
  report->compressed_bytes = static_cast<int64_t>(packed.value().size());
  struct Variant {
    std::string id;
    AttributeValue value;
    std::string what;
  };
  for (const Variant& v :
       {Variant{"plain", AttributeValue::S(text), "String"},
        Variant{"zlib", AttributeValue::B(packed.value()), "Binary (zlib)"}}) {
    PutItemRequest put;
    put.table_name = "Reply";
    put.item = Item{{"Id", AttributeValue::S("DynamoDB#Thread1#" + v.id)},
                    {"Message", v.value}};
    Result<PutItemResult> w = engine.PutItem(put);
    if (!w.ok()) return w.status();
    const int64_t size = ItemSize(put.item);
    AddStep(report, p, "PutItem Reply, message as " + v.what, size,
        w.value().consumed_capacity.Total(), "");
    GetItemRequest get;
    get.table_name = "Reply";
    get.key = Item{{"Id", put.item.at("Id")}};
    get.consistent_read = true;
    Result<GetItemResult> r = engine.GetItem(get);
    if (!r.ok()) return r.status();
    std::string note;
    if (v.id == "zlib" && r.value().item) {
      Result<std::string> back =
          Inflate(r.value().item->at("Message").b(), text.size());
      if (!back.ok()) return back.status();
      note = back.value() == text ? "inflated back to the same text"
                                  : "inflated text DIFFERS";
    }
    AddStep(report, p, "GetItem Reply (strongly consistent), " + v.what, size,
        r.value().consumed_capacity.Total(), note);
  }
  return Status::OK();
}

// 3. A value above 400 KB: refused as one item; stored as chunk items
// with BatchWriteItem and read back with BatchGetItem.
Status AddChunking(Engine& engine, const ItemPracticesOptions& o,
                   ItemPracticesReport* report) {
  const std::string p = "chunking (BatchWriteItem / BatchGetItem)";
  const std::string value(static_cast<size_t>(o.large_value_bytes), 'v');
  PutItemRequest whole;
  whole.table_name = "Reply";
  whole.item = Item{{"Id", AttributeValue::S("DynamoDB#Thread1#big")},
                    {"Message", AttributeValue::S(value)}};
  Result<PutItemResult> refused = engine.PutItem(whole);
  AddStep(report, p, "PutItem Reply, the whole value in one item", ItemSize(whole.item),
      refused.ok() ? refused.value().consumed_capacity.Total() : Capacity{},
      refused.ok() ? "accepted (under 400 KB)"
                   : "refused: " + refused.status().message());
  std::vector<WriteRequest> writes;
  std::vector<Item> keys;
  int64_t total_bytes = 0;
  for (int64_t off = 0; off < o.large_value_bytes; off += o.chunk_bytes) {
    const int seq = static_cast<int>(off / o.chunk_bytes) + 1;
    Item chunk{{"Id", AttributeValue::S("DynamoDB#Thread1#2012-03-15T20:42:54.023Z#1#" +
                                       std::to_string(seq))},
               {"Message", AttributeValue::S(value.substr(
                               static_cast<size_t>(off),
                               static_cast<size_t>(o.chunk_bytes)))}};
    total_bytes += ItemSize(chunk);
    keys.push_back(Item{{"Id", chunk.at("Id")}});
    writes.push_back(WriteRequest{std::move(chunk), std::nullopt});
  }
  report->chunks = static_cast<int>(writes.size());
  Capacity written, read;
  for (size_t i = 0; i < writes.size(); i += 25) {
    BatchWriteItemRequest req;
    req.request_items.emplace_back(
        "ReplyChunks",
        std::vector<WriteRequest>(writes.begin() + static_cast<std::ptrdiff_t>(i),
                                  writes.begin() + static_cast<std::ptrdiff_t>(
                                                       std::min(i + 25, writes.size()))));
    Result<BatchWriteItemResult> r = engine.BatchWriteItem(req);
    if (!r.ok()) return r.status();
    for (const ConsumedCapacity& c : r.value().consumed_capacity) written += c.Total();
  }
  AddStep(report, p, "BatchWriteItem ReplyChunks, " + std::to_string(report->chunks) +
             " chunks of " + std::to_string(o.chunk_bytes) + " B",
      total_bytes, written, "each chunk rounded up to 1 KB on its own");
  for (bool consistent : {true, false}) {
    Capacity c;
    for (size_t i = 0; i < keys.size(); i += 100) {
      BatchGetItemRequest req;
      KeysAndAttributes ka;
      ka.keys.assign(keys.begin() + static_cast<std::ptrdiff_t>(i),
                     keys.begin() + static_cast<std::ptrdiff_t>(
                                        std::min(i + 100, keys.size())));
      ka.consistent_read = consistent;
      req.request_items.emplace_back("ReplyChunks", std::move(ka));
      while (!req.request_items.empty()) {
        Result<BatchGetItemResult> r = engine.BatchGetItem(req);
        if (!r.ok()) return r.status();
        for (const ConsumedCapacity& cc : r.value().consumed_capacity) c += cc.Total();
        req.request_items = std::move(r.value().unprocessed_keys);
      }
    }
    read = c;
    AddStep(report, p,
        std::string("BatchGetItem ReplyChunks, ") +
            (consistent ? "strongly consistent" : "eventually consistent"),
        total_bytes, read, "each chunk rounded up to 4 KB on its own");
  }
  return Status::OK();
}

}  // namespace

Result<ItemPracticesReport> RunItemPractices(const ItemPracticesOptions& o) {
  if (o.catalog_item_bytes < 1 || o.catalog_item_bytes > 400 * 1024 ||
      o.hot_part_bytes < 1 || o.hot_part_bytes > 400 * 1024 ||
      o.message_bytes < 1 || o.chunk_bytes < 1024 ||
      o.chunk_bytes > 399 * 1024 || o.large_value_bytes < 1 ||
      o.large_value_bytes > 64 * 1024 * 1024) {
    return Status::Validation("item-size options out of range");
  }
  SimulatedClock clock;
  Result<std::unique_ptr<Engine>> opened =
      OpenSimulationEngine(&clock, CapacityOptions(), /*throttling=*/false);
  if (!opened.ok()) return opened.status();
  Engine& engine = *opened.value();
  for (const char* t : {"ProductCatalog", "ProductAvailability", "Reply",
                        "ReplyChunks"}) {
    if (Status s = Create(engine, t); !s.ok()) return s;
  }
  ItemPracticesReport report;
  report.options = o;
  if (Status s = AddVerticalPartitioning(engine, o, &report); !s.ok()) return s;
  if (Status s = AddCompression(engine, o, &report); !s.ok()) return s;
  if (Status s = AddChunking(engine, o, &report); !s.ok()) return s;
  return report;
}

PracticeStepCost CostOfStep(const PracticeStep& step) {
  const api::metrics::PriceTable& prices = api::metrics::UsEast1StandardPrices();
  api::metrics::TableUsage million;
  million.read_units = step.read_units * 1e6;
  million.write_units = step.write_units * 1e6;
  api::metrics::TableUsage month;
  month.period_hours = prices.hours_per_month;
  month.provisioned_rcu = api::metrics::ProvisionedForPeak(step.read_units);
  month.provisioned_wcu = api::metrics::ProvisionedForPeak(step.write_units);
  return {api::metrics::EstimateCost(million, prices).on_demand_total(),
          api::metrics::EstimateCost(month, prices).provisioned_total()};
}

TextTable ItemPracticesTable(const ItemPracticesReport& report) {
  TextTable t;
  t.header = {"practice", "operation", "bytes", "rcu", "wcu", "note",
              "on_demand_per_1M_calls", "provisioned_month_at_1_per_s"};
  for (const PracticeStep& s : report.steps) {
    const PracticeStepCost cost = CostOfStep(s);
    t.rows.push_back({s.practice, s.operation, std::to_string(s.item_bytes),
                      Fixed(s.read_units, 1), Fixed(s.write_units, 1), s.note,
                      api::metrics::FormatDollars(cost.on_demand_per_million),
                      api::metrics::FormatDollars(cost.provisioned_month_at_one_per_second)});
  }
  return t;
}

std::string ItemPracticesJson(const ItemPracticesReport& report) {
  const ItemPracticesOptions& o = report.options;
  nlohmann::json j;
  j["experiment"] = "item-size";
  j["options"] = {{"catalog_item_bytes", o.catalog_item_bytes},
                  {"hot_part_bytes", o.hot_part_bytes},
                  {"message_bytes", o.message_bytes},
                  {"large_value_bytes", o.large_value_bytes},
                  {"chunk_bytes", o.chunk_bytes}};
  j["compressed_bytes"] = report.compressed_bytes;
  j["chunks"] = report.chunks;
  nlohmann::json steps = nlohmann::json::array();
  for (const PracticeStep& s : report.steps) {
    steps.push_back({{"practice", s.practice},
                     {"operation", s.operation},
                     {"bytes", s.item_bytes},
                     {"read_units", s.read_units},
                     {"write_units", s.write_units},
                     {"note", s.note},
                     {"on_demand_per_million_calls", CostOfStep(s).on_demand_per_million},
                     {"provisioned_month_at_one_per_second",
                      CostOfStep(s).provisioned_month_at_one_per_second}});
  }
  j["steps"] = std::move(steps);
  return j.dump(2) + "\n";
}

}  // namespace dynarock::tools::simulate
