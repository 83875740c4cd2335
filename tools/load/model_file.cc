// tools/load/model_file.cc

#include "tools/load/model_file.h"

#include <fstream>
#include <map>
#include <sstream>
#include <utility>

namespace dynarock::tools::load {
namespace {

using api::Json;

Status Invalid(std::string_view source, const std::string& what) {
  return Status::Validation(std::string(source) + ": " + what);
}

// The member `name` of `object` if it is present and of the wanted kind.
const Json* Member(const Json& object, std::string_view name) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(std::string(name));
  return it == object.end() ? nullptr : &*it;
}

const Json* StringMember(const Json& object, std::string_view name) {
  const Json* m = Member(object, name);
  return m && m->is_string() ? m : nullptr;
}

// Collects AttributeDefinitions, refusing one name with two types.
class AttributeDefinitions {
 public:
  Status Add(std::string_view source, const std::string& name,
             const std::string& type) {
    auto [it, inserted] = types_.emplace(name, type);
    if (!inserted && it->second != type) {
      return Invalid(source, "attribute " + name + " is declared both " +
                                 it->second + " and " + type);
    }
    if (inserted) order_.push_back(name);
    return Status::OK();
  }
  bool Has(const std::string& name) const { return types_.count(name) > 0; }
  Json ToJson() const {
    Json defs = Json::array();
    for (const std::string& name : order_) {
      defs.push_back({{"AttributeName", name},
                      {"AttributeType", types_.at(name)}});
    }
    return defs;
  }

 private:
  std::map<std::string, std::string> types_;
  std::vector<std::string> order_;
};

// Workbench {"PartitionKey": {...}, "SortKey": {...}} -> KeySchema, adding
// the attributes to `defs`.
Result<Json> WorkbenchKeySchema(std::string_view source, std::string_view what,
                                const Json* key_attributes,
                                AttributeDefinitions* defs) {
  Json schema = Json::array();
  const std::pair<const char*, const char*> parts[] = {
      {"PartitionKey", "HASH"}, {"SortKey", "RANGE"}};
  for (const auto& [member, key_type] : parts) {
    const Json* key = key_attributes ? Member(*key_attributes, member) : nullptr;
    if (!key) {
      if (std::string_view(member) == "SortKey") continue;
      return Invalid(source, std::string(what) + " has no KeyAttributes." +
                                 member);
    }
    const Json* name = StringMember(*key, "AttributeName");
    const Json* type = StringMember(*key, "AttributeType");
    if (!name || !type) {
      return Invalid(source, std::string(what) + ": KeyAttributes." + member +
                                 " needs AttributeName and AttributeType");
    }
    DR_RETURN_IF_ERROR(
        defs->Add(source, name->get<std::string>(), type->get<std::string>()));
    schema.push_back({{"AttributeName", *name}, {"KeyType", key_type}});
  }
  return schema;
}

// The items of a Workbench TableData array.
Status AddTableData(std::string_view source, const std::string& table,
                    const Json& data, const std::string& facet,
                    std::vector<PlannedItem>* items) {
  if (!data.is_array()) {
    return Invalid(source, "table " + table +
                               (facet.empty() ? "" : " facet " + facet) +
                               ": TableData is not a list");
  }
  for (size_t i = 0; i < data.size(); ++i) {
    items->push_back(PlannedItem{data[i], i, facet});
  }
  return Status::OK();
}

Result<PlannedTable> WorkbenchTable(std::string_view source, const Json& t) {
  const Json* name = StringMember(t, "TableName");
  if (!name) return Invalid(source, "a DataModel entry has no TableName");
  PlannedTable table;
  table.name = name->get<std::string>();
  const std::string what = "table " + table.name;

  AttributeDefinitions defs;
  DR_ASSIGN_OR_RETURN(
      Json key_schema,
      WorkbenchKeySchema(source, what, Member(t, "KeyAttributes"), &defs));

  // Billing: what the model says, else on demand.
  Json throughput;
  std::string billing = "PAY_PER_REQUEST";
  if (const Json* mode = StringMember(t, "BillingMode")) {
    billing = mode->get<std::string>();
  }
  if (billing == "PROVISIONED") {
    const Json* settings = Member(t, "ProvisionedCapacitySettings");
    const Json* tp = settings ? Member(*settings, "ProvisionedThroughput")
                              : nullptr;
    if (!tp || !tp->is_object()) {
      return Invalid(source, what + " is PROVISIONED but has no "
                                    "ProvisionedCapacitySettings."
                                    "ProvisionedThroughput");
    }
    throughput = {{"ReadCapacityUnits", tp->value("ReadCapacityUnits", 5)},
                  {"WriteCapacityUnits", tp->value("WriteCapacityUnits", 5)}};
  }

  Json gsis = Json::array();
  if (const Json* list = Member(t, "GlobalSecondaryIndexes")) {
    if (!list->is_array()) {
      return Invalid(source, what + ": GlobalSecondaryIndexes is not a list");
    }
    for (const Json& g : *list) {
      const Json* index_name = StringMember(g, "IndexName");
      if (!index_name) {
        return Invalid(source, what + ": a GSI has no IndexName");
      }
      const std::string index_what =
          what + " index " + index_name->get<std::string>();
      DR_ASSIGN_OR_RETURN(Json gsi_schema,
                          WorkbenchKeySchema(source, index_what,
                                             Member(g, "KeyAttributes"), &defs));
      Json projection = {{"ProjectionType", "ALL"}};
      if (const Json* p = Member(g, "Projection"); p && p->is_object()) {
        projection = Json::object();
        if (const Json* type = StringMember(*p, "ProjectionType")) {
          projection["ProjectionType"] = *type;
        }
        if (const Json* nka = Member(*p, "NonKeyAttributes")) {
          projection["NonKeyAttributes"] = *nka;
        }
      }
      Json gsi = {{"IndexName", *index_name},
                  {"KeySchema", std::move(gsi_schema)},
                  {"Projection", std::move(projection)}};
      if (!throughput.is_null()) gsi["ProvisionedThroughput"] = throughput;
      gsis.push_back(std::move(gsi));
    }
  }

  table.create_table = {{"TableName", table.name},
                        {"KeySchema", std::move(key_schema)},
                        {"AttributeDefinitions", defs.ToJson()},
                        {"BillingMode", billing}};
  if (!throughput.is_null()) {
    table.create_table["ProvisionedThroughput"] = throughput;
  }
  if (!gsis.empty()) table.create_table["GlobalSecondaryIndexes"] = gsis;

  if (const Json* data = Member(t, "TableData")) {
    DR_RETURN_IF_ERROR(AddTableData(source, table.name, *data, "", &table.items));
  }
  if (const Json* facets = Member(t, "TableFacets")) {
    if (!facets->is_array()) {
      return Invalid(source, what + ": TableFacets is not a list");
    }
    for (const Json& facet : *facets) {
      const Json* facet_name = StringMember(facet, "FacetName");
      if (!facet_name) return Invalid(source, what + ": a facet has no FacetName");
      if (const Json* data = Member(facet, "TableData")) {
        DR_RETURN_IF_ERROR(AddTableData(source, table.name, *data,
                                        facet_name->get<std::string>(),
                                        &table.items));
      }
    }
  }
  return table;
}

Result<LoadPlan> ParseWorkbench(std::string_view source, const Json& doc) {
  const Json* model = Member(doc, "DataModel");
  if (!model->is_array()) return Invalid(source, "DataModel is not a list");
  LoadPlan plan;
  plan.format = FileFormat::kWorkbench;
  for (const Json& t : *model) {
    DR_ASSIGN_OR_RETURN(PlannedTable table, WorkbenchTable(source, t));
    plan.tables.push_back(std::move(table));
  }
  return plan;
}

// The developer guide's sample tables (SampleData.CreateTables), the only
// tables whose key schema a BatchWriteItem file can be loaded with.
Result<Json> SampleTableDefinition(std::string_view source,
                                   const std::string& name) {
  auto key = [](const char* attr, const char* type) {
    return Json{{"AttributeName", attr}, {"KeyType", type}};
  };
  auto def = [](const char* attr, const char* type) {
    return Json{{"AttributeName", attr}, {"AttributeType", type}};
  };
  Json t = {{"TableName", name}, {"BillingMode", "PAY_PER_REQUEST"}};
  if (name == "ProductCatalog") {
    // Json::array: a braced list of one json is a copy for some compilers
    // (CWG 2137), not a one-element array.
    t["KeySchema"] = Json::array({key("Id", "HASH")});
    t["AttributeDefinitions"] = Json::array({def("Id", "N")});
  } else if (name == "Forum") {
    t["KeySchema"] = Json::array({key("Name", "HASH")});
    t["AttributeDefinitions"] = Json::array({def("Name", "S")});
  } else if (name == "Thread") {
    t["KeySchema"] = {key("ForumName", "HASH"), key("Subject", "RANGE")};
    t["AttributeDefinitions"] = {def("ForumName", "S"), def("Subject", "S")};
  } else if (name == "Reply") {
    t["KeySchema"] = {key("Id", "HASH"), key("ReplyDateTime", "RANGE")};
    t["AttributeDefinitions"] = {def("Id", "S"), def("ReplyDateTime", "S"),
                                 def("PostedBy", "S"), def("Message", "S")};
    t["GlobalSecondaryIndexes"] = {
        {{"IndexName", "PostedBy-Message-Index"},
         {"KeySchema", {key("PostedBy", "HASH"), key("Message", "RANGE")}},
         {"Projection", {{"ProjectionType", "ALL"}}}}};
  } else {
    return Invalid(source,
                   "table " + name +
                       ": a BatchWriteItem file does not say the table's key "
                       "schema, and it is not one of the developer guide's "
                       "sample tables (ProductCatalog, Forum, Thread, Reply)");
  }
  return t;
}

bool LooksLikeBatchWrite(const Json& request_items) {
  if (!request_items.is_object() || request_items.empty()) return false;
  for (const auto& [table, requests] : request_items.items()) {
    if (!requests.is_array()) return false;
    for (const Json& r : requests) {
      if (!Member(r, "PutRequest") && !Member(r, "DeleteRequest")) return false;
    }
  }
  return true;
}

Result<LoadPlan> ParseBatchWrite(std::string_view source,
                                 const Json& request_items) {
  LoadPlan plan;
  plan.format = FileFormat::kBatchWriteItem;
  for (const auto& [name, requests] : request_items.items()) {
    PlannedTable table;
    table.name = name;
    DR_ASSIGN_OR_RETURN(table.create_table, SampleTableDefinition(source, name));
    for (size_t i = 0; i < requests.size(); ++i) {
      const Json* put = Member(requests[i], "PutRequest");
      const Json* item = put ? Member(*put, "Item") : nullptr;
      if (!item) {
        return Invalid(source, "table " + name + ", request " +
                                   std::to_string(i) +
                                   ": only PutRequest entries with an Item "
                                   "can be loaded");
      }
      table.items.push_back(PlannedItem{*item, i, ""});
    }
    plan.tables.push_back(std::move(table));
  }
  return plan;
}

Result<LoadPlan> ParseSpec(std::string_view source, const Json& doc) {
  const Json& def = doc["tableDefinition"];
  const Json* name = StringMember(def, "TableName");
  const Json* records = Member(doc, "records");
  if (!name || !records || !records->is_array()) {
    return Invalid(source, "a spec needs tableDefinition.TableName and a "
                           "records list");
  }
  PlannedTable table;
  table.name = name->get<std::string>();
  table.create_table = def;
  Json& ct = table.create_table;

  // Repairs, see the header.
  bool on_demand = ct.value("BillingMode", "") == "PAY_PER_REQUEST";
  if (on_demand) ct.erase("ProvisionedThroughput");
  AttributeDefinitions defs;
  if (const Json* given = Member(ct, "AttributeDefinitions")) {
    for (const Json& d : *given) {
      DR_RETURN_IF_ERROR(defs.Add(source, d.value("AttributeName", ""),
                                  d.value("AttributeType", "")));
    }
  }
  if (Json* gsis = ct.contains("GlobalSecondaryIndexes")
                       ? &ct["GlobalSecondaryIndexes"]
                       : nullptr) {
    for (Json& gsi : *gsis) {
      if (on_demand) gsi.erase("ProvisionedThroughput");
      for (const Json& k : gsi.value("KeySchema", Json::array())) {
        std::string attr = k.value("AttributeName", "");
        if (attr.empty() || defs.Has(attr)) continue;
        std::string type = "S";
        for (const Json& r : *records) {
          if (const Json* v = Member(r, attr)) {
            if (v->is_number()) type = "N";
            break;
          }
        }
        DR_RETURN_IF_ERROR(defs.Add(source, attr, type));
      }
    }
  }
  ct["AttributeDefinitions"] = defs.ToJson();

  for (size_t i = 0; i < records->size(); ++i) {
    const Json& r = (*records)[i];
    Json item = r;  // a non-object record is reported by the item check
    if (r.is_object()) {
      item = Json::object();
      for (const auto& [attr, value] : r.items()) {
        item[attr] = PlainToAttributeValue(value);
      }
    }
    table.items.push_back(PlannedItem{std::move(item), i, ""});
  }
  LoadPlan plan;
  plan.format = FileFormat::kSpec;
  plan.tables.push_back(std::move(table));
  return plan;
}

}  // namespace

std::string_view FileFormatName(FileFormat format) {
  switch (format) {
    case FileFormat::kWorkbench:
      return "NoSQL Workbench model";
    case FileFormat::kBatchWriteItem:
      return "BatchWriteItem request";
    case FileFormat::kSpec:
      return "spec";
  }
  return "unknown";
}

api::Json PlainToAttributeValue(const api::Json& plain) {
  switch (plain.type()) {
    case Json::value_t::string:
      return {{"S", plain}};
    case Json::value_t::boolean:
      return {{"BOOL", plain}};
    case Json::value_t::null:
      return {{"NULL", true}};
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
      return {{"N", plain.dump()}};
    case Json::value_t::array: {
      Json list = Json::array();
      for (const Json& v : plain) list.push_back(PlainToAttributeValue(v));
      return {{"L", std::move(list)}};
    }
    case Json::value_t::object: {
      Json map = Json::object();
      for (const auto& [k, v] : plain.items()) map[k] = PlainToAttributeValue(v);
      return {{"M", std::move(map)}};
    }
    default:
      return {{"NULL", true}};
  }
}

Result<LoadPlan> ParseModelFile(std::string_view source, std::string_view text) {
  Result<Json> doc = api::ParseRequestBody(text);
  if (!doc.ok()) return Invalid(source, "not a JSON object");
  Result<LoadPlan> plan = Status::Internal("unset");
  if (Member(*doc, "DataModel")) {
    plan = ParseWorkbench(source, *doc);
  } else if (Member(*doc, "tableDefinition") && Member(*doc, "records")) {
    plan = ParseSpec(source, *doc);
  } else if (const Json* ri = Member(*doc, "RequestItems");
             ri && LooksLikeBatchWrite(*ri)) {
    plan = ParseBatchWrite(source, *ri);
  } else if (LooksLikeBatchWrite(*doc)) {
    plan = ParseBatchWrite(source, *doc);
  } else {
    return Invalid(source,
                   "not a NoSQL Workbench model (DataModel), a BatchWriteItem "
                   "request ({\"<Table>\": [{\"PutRequest\": ...}]}) or a "
                   "spec (tableDefinition + records)");
  }
  if (plan.ok()) plan->source = std::string(source);
  return plan;
}

Result<LoadPlan> ReadModelFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError(path + ": cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Status::IOError(path + ": cannot read the file");
  return ParseModelFile(path, text.str());
}

}  // namespace dynarock::tools::load
