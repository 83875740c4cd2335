#include "api/fault/fault_injection.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "api/dispatch.h"

namespace dynarock::api {

namespace {

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
      const Json* m = Member(request_, member);
      if (m == nullptr) return std::nullopt;
      if (m->is_string()) return m->get<std::string>();
      if (m->is_boolean()) return std::string(m->get<bool>() ? "true" : "false");
      return m->dump();
    };
    if (operation == "BatchWriteItem" || operation == "BatchGetItem") {
      AddBatchEntries(operation == "BatchGetItem");
    } else if (operation == "TransactWriteItems" || operation == "TransactGetItems") {
      const Json* actions = Member(request, "TransactItems");
      for (size_t i = 0; actions != nullptr && actions->is_array() && i < actions->size(); ++i) {
        const Json& action = (*actions)[i];
        const Json* body = action.is_object() && action.size() == 1 ? &action.begin().value()
                                                                    : nullptr;
        const Json* item = body ? Member(*body, "Item") : nullptr;
        if (item == nullptr && body != nullptr) item = Member(*body, "Key");
        Add(body ? StringMember(*body, "TableName") : std::string_view(), item, i);
      }
    } else if (operation == "ExecuteTransaction") {
      // Statements name their items in PartiQL: the rules see how many
      // there are (for CancellationReasons), not which.
      const Json* statements = Member(request, "TransactStatements");
      for (size_t i = 0; statements != nullptr && statements->is_array() &&
                         i < statements->size(); ++i) {
        Add({}, nullptr, i);
      }
    } else {
      const Json* item = Member(request, "Key");
      if (item == nullptr) item = Member(request, "Item");
      if (item != nullptr) Add(site_.table_name, item, 0);
    }
  }
  SiteBuilder(const SiteBuilder&) = delete;
  SiteBuilder& operator=(const SiteBuilder&) = delete;

  const FaultSite& site() const { return site_; }
  // Target i's position in its table's list of the request.
  size_t position(size_t i) const { return positions_[i]; }

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

  // RequestItems' entries in order: BatchWriteItem's write requests (their
  // Item or Key), BatchGetItem's Keys.
  void AddBatchEntries(bool get) {
    const Json* tables = Member(request_, "RequestItems");
    if (tables == nullptr) return;
    for (auto it = tables->begin(); it != tables->end(); ++it) {
      const Json* entries = get ? Member(it.value(), "Keys") : &it.value();
      if (entries == nullptr || !entries->is_array()) continue;
      for (size_t i = 0; i < entries->size(); ++i) {
        const Json& e = (*entries)[i];
        const Json* item = &e;
        if (!get) {
          const Json* put = Member(e, "PutRequest");
          const Json* del = Member(e, "DeleteRequest");
          item = put ? Member(*put, "Item") : del ? Member(*del, "Key") : nullptr;
        }
        Add(it.key(), item, i);
      }
    }
  }

  // `table` views the request (or is empty); the item is decoded here, and
  // one the rules cannot read is left to the operation's own checks.
  void Add(std::string_view table, const Json* item, size_t position) {
    const Item* decoded = nullptr;
    if (item != nullptr && item->is_object()) {
      Result<Item> r = DecodeItem(*item);
      if (r.ok()) decoded = &items_.emplace_back(std::move(r).value());
    }
    site_.targets.push_back({table, decoded});
    positions_.push_back(position);
  }

  const Json& request_;
  FaultSite site_;
  std::deque<Item> items_;  // stable addresses for the targets
  std::vector<size_t> positions_;
};

// Takes the entries `targets` of a batch out of *request; answers them in
// UnprocessedItems' / UnprocessedKeys' shape.
Json TakeOut(std::string_view operation, const SiteBuilder& site, const std::set<size_t>& targets,
             Json* request, bool* nothing_left) {
  std::map<std::string, std::set<size_t>> by_table;
  for (size_t t : targets) {
    by_table[std::string(site.site().targets[t].table_name)].insert(site.position(t));
  }
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
