#include "api/fault/fault_injection.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace dynarock::api {

namespace {

constexpr std::string_view kExtensionPrefix = "DynamoRock_20251121.";

// The request as the rules see it, and where each target came from.
class SiteBuilder {
 public:
  SiteBuilder(const Scope& scope, std::string_view operation, const Json& request)
      : request_(request) {
    site_.operation = operation;
    site_.scope = &scope;
    site_.table_name = StringMember(request, "TableName");
    site_.index_name = StringMember(request, "IndexName");
    site_.member_text = [this](std::string_view member) -> std::optional<std::string> {
      auto it = request_.find(member);
      if (it == request_.end() || it->is_null()) return std::nullopt;
      if (it->is_string()) return it->get<std::string>();
      if (it->is_boolean()) return std::string(it->get<bool>() ? "true" : "false");
      return it->dump();
    };
    if (operation == "BatchWriteItem") {
      ForEachBatchEntry([&](const std::string& table, const Json& entry) {
        const Json* put = Member(entry, "PutRequest");
        const Json* del = Member(entry, "DeleteRequest");
        return Add(table, put ? Member(*put, "Item") : del ? Member(*del, "Key") : nullptr);
      });
    } else if (operation == "BatchGetItem") {
      ForEachBatchEntry([&](const std::string& table, const Json& key) { return Add(table, &key); });
    } else if (operation == "TransactWriteItems" || operation == "TransactGetItems") {
      const Json* actions = Member(request, "TransactItems");
      if (actions != nullptr && actions->is_array()) {
        for (const Json& action : *actions) {
          const Json* body = action.is_object() && action.size() == 1 ? &action.begin().value() : nullptr;
          const Json* item = body ? Member(*body, "Item") : nullptr;
          if (item == nullptr && body != nullptr) item = Member(*body, "Key");
          Add(body ? std::string(StringMember(*body, "TableName")) : std::string(), item);
        }
      }
    } else if (operation == "ExecuteTransaction") {
      // Statements name their items in PartiQL: the rules see how many
      // there are (for CancellationReasons), not which.
      const Json* statements = Member(request, "TransactStatements");
      if (statements != nullptr && statements->is_array()) {
        for (size_t i = 0; i < statements->size(); ++i) Add("", nullptr);
      }
    } else {
      const Json* item = Member(request, "Key");
      if (item == nullptr) item = Member(request, "Item");
      if (item != nullptr) Add(std::string(site_.table_name), item);
    }
    for (size_t i = 0; i < items_.size(); ++i) {
      site_.targets.push_back({tables_[i], items_[i] ? &*items_[i] : nullptr});
    }
  }
  SiteBuilder(const SiteBuilder&) = delete;
  SiteBuilder& operator=(const SiteBuilder&) = delete;

  const FaultSite& site() const { return site_; }
  // Where target i is: its table and its position in the table's list.
  const std::pair<std::string, size_t>& origin(size_t i) const { return origins_[i]; }

 private:
  static const Json* Member(const Json& object, std::string_view name) {
    if (!object.is_object()) return nullptr;
    auto it = object.find(name);
    return it == object.end() || it->is_null() ? nullptr : &*it;
  }
  static std::string_view StringMember(const Json& object, std::string_view name) {
    const Json* m = Member(object, name);
    return m != nullptr && m->is_string() ? std::string_view(m->get_ref<const std::string&>())
                                          : std::string_view();
  }

  // Calls add(table, entry) for each entry of RequestItems in order:
  // BatchWriteItem's write requests, BatchGetItem's Keys.
  template <typename Add>
  void ForEachBatchEntry(Add add) {
    const Json* tables = Member(request_, "RequestItems");
    if (tables == nullptr || !tables->is_object()) return;
    for (auto it = tables->begin(); it != tables->end(); ++it) {
      const Json* entries = &it.value();
      if (site_.operation == "BatchGetItem") entries = Member(it.value(), "Keys");
      if (entries == nullptr || !entries->is_array()) continue;
      for (size_t i = 0; i < entries->size(); ++i) {
        add(it.key(), (*entries)[i]);
        origins_.back() = {it.key(), i};
      }
    }
  }

  bool Add(std::string table, const Json* item) {
    table_names_.push_back(std::move(table));
    tables_.push_back(table_names_.back());
    std::optional<Item> decoded;
    if (item != nullptr && item->is_object()) {
      // A key the rules cannot read is left to the operation's own checks.
      Result<Item> r = DecodeItem(*item);
      if (r.ok()) decoded = std::move(r).value();
    }
    items_.push_back(std::move(decoded));
    origins_.emplace_back(table_names_.back(), origins_.size());
    return true;
  }

  const Json& request_;
  FaultSite site_;
  std::deque<std::string> table_names_;  // stable addresses for the views
  std::vector<std::string_view> tables_;
  std::deque<std::optional<Item>> items_;
  std::vector<std::pair<std::string, size_t>> origins_;
};

// Takes the entries `targets` of a batch out of *request; answers them in
// UnprocessedItems' / UnprocessedKeys' shape.
Json TakeOut(std::string_view operation, const SiteBuilder& site, const std::set<size_t>& targets,
             Json* request, bool* nothing_left) {
  std::map<std::string, std::set<size_t>> by_table;
  for (size_t t : targets) by_table[site.origin(t).first].insert(site.origin(t).second);
  Json& tables = (*request)["RequestItems"];
  Json out = Json::object();
  const bool get = operation == "BatchGetItem";
  for (const auto& [table, positions] : by_table) {
    Json& list = get ? tables[table]["Keys"] : tables[table];
    Json kept = Json::array();
    Json taken = Json::array();
    for (size_t i = 0; i < list.size(); ++i) {
      (positions.count(i) ? taken : kept).push_back(std::move(list[i]));
    }
    if (get) {
      Json unprocessed = tables[table];
      unprocessed["Keys"] = std::move(taken);
      out[table] = std::move(unprocessed);
    } else {
      out[table] = std::move(taken);
    }
    if (kept.empty()) {
      tables.erase(table);
    } else {
      list = std::move(kept);
    }
  }
  *nothing_left = tables.empty();
  return out;
}

}  // namespace

InjectedFaults InjectFaults(Engine* engine, const Scope& scope, std::string_view operation,
                            Json* request) {
  InjectedFaults out;
  if (operation.substr(0, kExtensionPrefix.size()) == kExtensionPrefix) return out;
  SiteBuilder site(scope, operation, *request);
  std::set<size_t> unprocessed;
  for (FaultDecision& d : engine->DecideFaults(site.site())) {
    switch (d.kind) {
      case FaultEffectKind::kError:
        out.error = std::move(d.error);
        break;
      case FaultEffectKind::kUnprocessed:
        unprocessed.insert(d.targets.begin(), d.targets.end());
        break;
      case FaultEffectKind::kLatency:
        out.latency_micros += d.latency_micros;
        break;
    }
  }
  out.latency_micros = std::min(out.latency_micros, kMaxFaultLatencyMicros);
  if (!out.error && !unprocessed.empty()) {
    out.unprocessed = TakeOut(operation, site, unprocessed, request, &out.nothing_left);
  }
  return out;
}

Json UnprocessedOnlyResponse(std::string_view operation, const InjectedFaults& faults) {
  if (operation == "BatchGetItem") {
    return Json{{"Responses", Json::object()}, {"UnprocessedKeys", faults.unprocessed}};
  }
  return Json{{"UnprocessedItems", faults.unprocessed}};
}

void AddUnprocessed(std::string_view operation, const InjectedFaults& faults, Json* response) {
  if (faults.unprocessed.is_null()) return;
  const bool get = operation == "BatchGetItem";
  Json& into = (*response)[get ? "UnprocessedKeys" : "UnprocessedItems"];
  if (!into.is_object()) into = Json::object();
  for (auto it = faults.unprocessed.begin(); it != faults.unprocessed.end(); ++it) {
    if (!into.contains(it.key())) {
      into[it.key()] = it.value();
    } else if (get) {
      for (const Json& key : it.value()["Keys"]) into[it.key()]["Keys"].push_back(key);
    } else {
      for (const Json& entry : it.value()) into[it.key()].push_back(entry);
    }
  }
}

}  // namespace dynarock::api
