// tools/load/loader.cc

#include "tools/load/loader.h"

#include <algorithm>
#include <map>
#include <set>
#include <thread>
#include <tuple>
#include <utility>

namespace dynarock::tools::load {
namespace {

using api::Json;

// DynamoDB's limit on the requests of one BatchWriteItem.
constexpr size_t kBatchSize = 25;

constexpr std::string_view kWaitForIndexes = "DynamoRock_20251121.WaitForIndexes";

// The ErrorCode named `type`, for errors passed on from a response;
// kInternal when the type is not one dynarock knows.
ErrorCode CodeOf(std::string_view type) {
  for (int c = static_cast<int>(ErrorCode::kValidation);
       c <= static_cast<int>(ErrorCode::kInternal); ++c) {
    if (ErrorCodeName(static_cast<ErrorCode>(c)) == type) {
      return static_cast<ErrorCode>(c);
    }
  }
  return ErrorCode::kInternal;
}

Status Failed(std::string_view what, const api::Response& response) {
  std::string type = ErrorTypeOf(response);
  std::string message = std::string(what) + ": ";
  if (response.http_status == 0) {
    message += "cannot reach the endpoint: " + response.body;
  } else {
    message += (type.empty() ? "HTTP " + std::to_string(response.http_status)
                             : type) +
               ": " + ErrorMessageOf(response);
  }
  return Status(CodeOf(type), std::move(message));
}

// The text that identifies an item's primary key within its table.
std::string KeyText(const Json& key_schema, const Json& item) {
  Json key = Json::object();
  for (const Json& k : key_schema) {
    const std::string name = k.value("AttributeName", "");
    if (item.contains(name)) key[name] = item[name];
  }
  return key.dump();
}

}  // namespace

std::string ErrorTypeOf(const api::Response& response) {
  if (response.ok()) return "";
  Result<Json> body = api::ParseRequestBody(response.body);
  if (!body.ok()) return "";
  auto type = body->find("__type");
  if (type == body->end() || !type->is_string()) return "";
  std::string full = type->get<std::string>();
  size_t hash = full.rfind('#');
  return hash == std::string::npos ? full : full.substr(hash + 1);
}

std::string ErrorMessageOf(const api::Response& response) {
  Result<Json> body = api::ParseRequestBody(response.body);
  if (body.ok()) {
    for (const char* member : {"message", "Message"}) {
      auto m = body->find(member);
      if (m != body->end() && m->is_string()) return m->get<std::string>();
    }
  }
  return response.body;
}

bool IsRetryable(const api::Response& response) {
  if (response.ok() || response.http_status == 0) return false;
  if (response.http_status >= 500) return true;
  const std::string type = ErrorTypeOf(response);
  return type == "ProvisionedThroughputExceededException" ||
         type == "ThrottlingException" || type == "RequestLimitExceeded" ||
         type == "LimitExceededException";
}

Loader::Loader(SendFn send, LoaderOptions options)
    : send_(std::move(send)), options_(std::move(options)), rng_(options_.seed) {}

void Loader::Sleep(std::chrono::microseconds d) {
  if (options_.sleep) {
    options_.sleep(d);
  } else {
    std::this_thread::sleep_for(d);
  }
}

void Loader::Backoff(int attempt) {
  // Full jitter (uniform in [0, cap]) keeps many loaders that were
  // throttled together from retrying together.
  int64_t cap = options_.base_backoff.count();
  for (int i = 0; i < attempt && cap < options_.max_backoff.count(); ++i) {
    cap *= 2;
  }
  cap = std::min<int64_t>(cap, options_.max_backoff.count());
  std::uniform_int_distribution<int64_t> jitter(0, cap);
  Sleep(std::chrono::microseconds(jitter(rng_)));
}

api::Response Loader::SendWithRetry(std::string_view operation,
                                    const std::string& body,
                                    LoadReport* report) {
  api::Response response;
  for (int attempt = 0;; ++attempt) {
    response = send_(operation, body);
    if (!IsRetryable(response) || attempt + 1 >= options_.max_attempts) {
      return response;
    }
    ++report->retries;
    Backoff(attempt);
  }
}

Status Loader::CheckTablesAbsent(const std::vector<const PlannedTable*>& tables,
                                 std::vector<bool>* exists) {
  LoadReport ignored;
  for (const PlannedTable* table : tables) {
    const std::string body = Json{{"TableName", table->name}}.dump();
    api::Response r = SendWithRetry("DescribeTable", body, &ignored);
    if (r.ok()) {
      if (!options_.replace) {
        return Status::ResourceInUse("Table already exists: " + table->name +
                                     " (--replace deletes and recreates it)");
      }
      exists->push_back(true);
    } else if (ErrorTypeOf(r) == "ResourceNotFoundException") {
      exists->push_back(false);
    } else {
      return Failed("DescribeTable " + table->name, r);
    }
  }
  return Status::OK();
}

Status Loader::WaitForTable(const std::string& name, bool until_gone) {
  const auto deadline = std::chrono::steady_clock::now() + options_.table_wait;
  const std::string body = Json{{"TableName", name}}.dump();
  LoadReport ignored;
  while (true) {
    api::Response r = SendWithRetry("DescribeTable", body, &ignored);
    if (until_gone) {
      if (ErrorTypeOf(r) == "ResourceNotFoundException") return Status::OK();
      if (!r.ok()) return Failed("DescribeTable " + name, r);
    } else {
      if (!r.ok()) return Failed("DescribeTable " + name, r);
      Result<Json> d = api::ParseRequestBody(r.body);
      if (d.ok()) {
        const Json& t = (*d)["Table"];
        bool active = t.value("TableStatus", "") == "ACTIVE";
        for (const Json& gsi : t.value("GlobalSecondaryIndexes", Json::array())) {
          active = active && gsi.value("IndexStatus", "") == "ACTIVE";
        }
        if (active) return Status::OK();
      }
    }
    if (std::chrono::steady_clock::now() > deadline) {
      return Status::Internal("table " + name + " did not become " +
                              (until_gone ? "deleted" : "ACTIVE") + " within " +
                              std::to_string(options_.table_wait.count()) + " s");
    }
    Sleep(std::chrono::milliseconds(20));
  }
}

Status Loader::DeleteTable(const std::string& name) {
  LoadReport ignored;
  api::Response r = SendWithRetry(
      "DeleteTable", Json{{"TableName", name}}.dump(), &ignored);
  if (!r.ok() && ErrorTypeOf(r) != "ResourceNotFoundException") {
    return Failed("DeleteTable " + name, r);
  }
  return WaitForTable(name, /*until_gone=*/true);
}

Status Loader::CreateTable(const PlannedTable& table) {
  LoadReport ignored;
  api::Response r =
      SendWithRetry("CreateTable", table.create_table.dump(), &ignored);
  if (!r.ok()) return Failed("CreateTable " + table.name, r);
  return WaitForTable(table.name, /*until_gone=*/false);
}

Status Loader::BatchWrite(const std::string& table, Json requests,
                          LoadReport* report) {
  int attempt = 0;
  while (!requests.empty()) {
    const size_t sent = requests.size();
    Json body = {{"RequestItems", {{table, requests}}}};
    api::Response r = send_("BatchWriteItem", body.dump());
    if (!r.ok()) {
      if (!IsRetryable(r) || attempt + 1 >= options_.max_attempts) {
        return Failed("BatchWriteItem " + table, r);
      }
      ++report->retries;
      Backoff(attempt++);
      continue;
    }
    ++report->batches;
    Json unprocessed = Json::array();
    if (Result<Json> parsed = api::ParseRequestBody(r.body); parsed.ok()) {
      const Json& u = parsed->value("UnprocessedItems", Json::object());
      if (u.contains(table)) unprocessed = u[table];
    }
    const size_t done = sent - unprocessed.size();
    report->items += done;
    written_ += done;
    if (done > 0 && options_.on_progress) options_.on_progress(written_, 0);
    if (unprocessed.empty()) return Status::OK();
    // UnprocessedItems: back off as for throttling; progress resets the
    // count of fruitless tries.
    if (done > 0) attempt = 0;
    if (attempt + 1 >= options_.max_attempts) {
      return Status(ErrorCode::kProvisionedThroughputExceeded,
                    "BatchWriteItem " + table + ": " +
                        std::to_string(unprocessed.size()) +
                        " items still unprocessed after " +
                        std::to_string(options_.max_attempts) + " tries");
    }
    ++report->retries;
    Backoff(attempt++);
    requests = std::move(unprocessed);
  }
  return Status::OK();
}

Status Loader::WriteItems(const PlannedTable& table,
                          const std::vector<const PlannedItem*>& items,
                          size_t /*total*/, LoadReport* report) {
  const Json& key_schema = table.create_table["KeySchema"];
  Json batch = Json::array();
  std::set<std::string> keys;  // BatchWriteItem refuses two puts of one key
  for (const PlannedItem* item : items) {
    std::string key = KeyText(key_schema, item->item);
    if (batch.size() == kBatchSize || keys.count(key)) {
      DR_RETURN_IF_ERROR(BatchWrite(table.name, std::move(batch), report));
      batch = Json::array();
      keys.clear();
    }
    keys.insert(std::move(key));
    batch.push_back({{"PutRequest", {{"Item", item->item}}}});
  }
  if (!batch.empty()) {
    DR_RETURN_IF_ERROR(BatchWrite(table.name, std::move(batch), report));
  }
  return Status::OK();
}

Status Loader::Load(const std::vector<LoadPlan>& plans, LoadReport* report) {
  // 1. Everything that can be known without the target.
  std::map<std::string, std::string> defined_in;
  std::vector<const PlannedTable*> tables;
  size_t total = 0;
  for (const LoadPlan& plan : plans) {
    for (const PlannedTable& table : plan.tables) {
      auto [it, inserted] = defined_in.emplace(table.name, plan.source);
      if (!inserted) {
        return Status::Validation("table " + table.name +
                                  " is defined by both " + it->second +
                                  " and " + plan.source);
      }
      tables.push_back(&table);
    }
    std::vector<InvalidItem> invalid = CheckItems(plan);
    report->invalid.insert(report->invalid.end(), invalid.begin(),
                           invalid.end());
  }
  if (!report->invalid.empty() && !options_.skip_invalid) {
    return Status::Validation(
        std::to_string(report->invalid.size()) +
        " invalid item(s); nothing was loaded (--skip-invalid loads the "
        "others)");
  }
  // Which items to write, per table.
  std::vector<std::vector<const PlannedItem*>> to_write(tables.size());
  {
    std::set<std::tuple<std::string, std::string, size_t>> skipped;
    for (const InvalidItem& i : report->invalid) {
      skipped.emplace(i.table, i.facet, i.index);
    }
    for (size_t t = 0; t < tables.size(); ++t) {
      for (const PlannedItem& item : tables[t]->items) {
        if (!skipped.count({tables[t]->name, item.facet, item.index})) {
          to_write[t].push_back(&item);
        }
      }
      total += to_write[t].size();
    }
  }

  // 2. Tables: all checked before any is touched.
  std::vector<bool> exists;
  DR_RETURN_IF_ERROR(CheckTablesAbsent(tables, &exists));
  for (size_t t = 0; t < tables.size(); ++t) {
    if (exists[t]) DR_RETURN_IF_ERROR(DeleteTable(tables[t]->name));
    DR_RETURN_IF_ERROR(CreateTable(*tables[t]));
    ++report->tables;
  }

  // 3. Items.
  written_ = 0;
  auto progress = options_.on_progress;
  if (progress) {
    options_.on_progress = [&](size_t written, size_t) {
      progress(written, total);
    };
  }
  for (size_t t = 0; t < tables.size(); ++t) {
    Status s = WriteItems(*tables[t], to_write[t], total, report);
    if (!s.ok()) {
      options_.on_progress = progress;
      return s;
    }
  }
  options_.on_progress = progress;

  // 4. GSIs up to date before the caller reads (dynarock only; DynamoDB and
  // other endpoints answer UnknownOperation, which is fine).
  send_(kWaitForIndexes, "{}");
  return Status::OK();
}

}  // namespace dynarock::tools::load
