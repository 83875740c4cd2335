// api/ops/table_codec.cc: DescribeTable's rendering of a TableDescription
// (table_codec.h), shared by the table operations, the backups' source
// table details and the restores.

#include <string>
#include <utility>
#include <vector>

#include "api/ops/table_codec.h"
#include "api/ops/vector_codec.h"

namespace dynarock::api::ops {

namespace {

Json Seconds(int64_t micros) { return static_cast<double>(micros) / 1e6; }

Json EncodeKeySchema(const std::vector<KeySchemaElement>& schema) {
  Json out = Json::array();
  for (const KeySchemaElement& k : schema) {
    out.push_back({{"AttributeName", k.attribute_name},
                   {"KeyType", k.key_type == KeyType::kRange ? "RANGE" : "HASH"}});
  }
  return out;
}

Json EncodeProjection(const Projection& p) {
  Json out = Json::object();
  switch (p.type) {
    case ProjectionType::kAll:
      out["ProjectionType"] = "ALL";
      break;
    case ProjectionType::kKeysOnly:
      out["ProjectionType"] = "KEYS_ONLY";
      break;
    case ProjectionType::kInclude:
      out["ProjectionType"] = "INCLUDE";
      out["NonKeyAttributes"] = p.non_key_attributes;
      break;
  }
  return out;
}

Json EncodeThroughput(const ProvisionedThroughputDescription& t) {
  Json out = {{"NumberOfDecreasesToday", t.number_of_decreases_today},
              {"ReadCapacityUnits", t.read_capacity_units},
              {"WriteCapacityUnits", t.write_capacity_units}};
  if (t.last_increase_micros) {
    out["LastIncreaseDateTime"] = Seconds(*t.last_increase_micros);
  }
  if (t.last_decrease_micros) {
    out["LastDecreaseDateTime"] = Seconds(*t.last_decrease_micros);
  }
  return out;
}

// OnDemandThroughput as DynamoDB reports it: only the maxima that are set
// (a removed one is left out), nothing when none is.
void EncodeOnDemandThroughput(const ThroughputSettings& s, Json* out) {
  if (s.max_read_request_units <= 0 && s.max_write_request_units <= 0) return;
  Json t = Json::object();
  if (s.max_read_request_units > 0) t["MaxReadRequestUnits"] = s.max_read_request_units;
  if (s.max_write_request_units > 0) t["MaxWriteRequestUnits"] = s.max_write_request_units;
  (*out)["OnDemandThroughput"] = std::move(t);
}

void EncodeWarmThroughput(const ThroughputSettings& s, std::string_view status,
                          Json* out) {
  if (s.warm_read_units_per_second <= 0 && s.warm_write_units_per_second <= 0) return;
  (*out)["WarmThroughput"] = {{"ReadUnitsPerSecond", s.warm_read_units_per_second},
                              {"WriteUnitsPerSecond", s.warm_write_units_per_second},
                              {"Status", status}};
}

// A replica's (or replica GSI's) read overrides, as ReplicaDescription and
// ReplicaGlobalSecondaryIndexDescription show them.
void AddReadOverride(const ReadOverride& o, Json* out) {
  if (o.read_capacity_units) {
    (*out)["ProvisionedThroughputOverride"] = {{"ReadCapacityUnits", *o.read_capacity_units}};
  }
  if (o.max_read_request_units) {
    (*out)["OnDemandThroughputOverride"] = {{"MaxReadRequestUnits", *o.max_read_request_units}};
  }
}

// A global table's Replicas (ReplicaDescription).
Json EncodeReplicas(const std::vector<ReplicaDescription>& replicas) {
  Json out = Json::array();
  for (const ReplicaDescription& r : replicas) {
    Json replica = {{"RegionName", r.region_name},
                    {"ReplicaStatus", ReplicaStatusName(r.replica_status)}};
    if (r.kms_master_key_id) replica["KMSMasterKeyId"] = *r.kms_master_key_id;
    if (r.replica_table_class_summary) {
      replica["ReplicaTableClassSummary"] = {
          {"TableClass", TableClassName(r.replica_table_class_summary->table_class)}};
    }
    AddReadOverride(r.read_override, &replica);
    if (!r.global_secondary_indexes.empty()) {
      Json indexes = Json::array();
      for (const ReplicaIndexOverride& o : r.global_secondary_indexes) {
        Json index = {{"IndexName", o.index_name}};
        AddReadOverride(o.read, &index);
        indexes.push_back(std::move(index));
      }
      replica["GlobalSecondaryIndexes"] = std::move(indexes);
    }
    out.push_back(std::move(replica));
  }
  return out;
}

Json EncodeTableDescription(const TableDescription& d) {
  Json attrs = Json::array();
  for (const AttributeDefinition& a : d.attribute_definitions) {
    attrs.push_back({{"AttributeName", a.attribute_name},
                     {"AttributeType", AttrTypeName(a.attribute_type)}});
  }
  Json out = {
      {"AttributeDefinitions", std::move(attrs)},
      {"TableName", d.table_name},
      {"KeySchema", EncodeKeySchema(d.key_schema)},
      {"TableStatus", TableStatusName(d.table_status)},
      {"CreationDateTime", Seconds(d.creation_date_time_micros)},
      {"ProvisionedThroughput", EncodeThroughput(d.provisioned_throughput)},
      {"TableSizeBytes", d.table_size_bytes},
      {"ItemCount", d.item_count},
      {"TableArn", d.table_arn},
      {"TableId", d.table_id},
      {"DeletionProtectionEnabled", d.deletion_protection_enabled},
  };
  if (d.stream_specification) {
    Json spec = {{"StreamEnabled", d.stream_specification->stream_enabled}};
    if (d.stream_specification->stream_enabled &&
        d.stream_specification->stream_view_type) {
      spec["StreamViewType"] =
          StreamViewTypeName(*d.stream_specification->stream_view_type);
    }
    out["StreamSpecification"] = std::move(spec);
  }
  if (!d.latest_stream_arn.empty()) {
    out["LatestStreamArn"] = d.latest_stream_arn;
    out["LatestStreamLabel"] = d.latest_stream_label;
  }
  // DynamoDB shows BillingModeSummary for on-demand tables and for tables
  // that were ever switched to on-demand; a table created provisioned and
  // never switched has none.
  if (d.billing_mode == BillingMode::kPayPerRequest ||
      d.last_update_to_pay_per_request_micros) {
    Json summary = {{"BillingMode", d.billing_mode == BillingMode::kPayPerRequest
                                        ? "PAY_PER_REQUEST"
                                        : "PROVISIONED"}};
    if (d.last_update_to_pay_per_request_micros) {
      summary["LastUpdateToPayPerRequestDateTime"] =
          Seconds(*d.last_update_to_pay_per_request_micros);
    }
    out["BillingModeSummary"] = std::move(summary);
  }
  if (d.sse_description) {
    out["SSEDescription"] = {{"Status", "ENABLED"},
                             {"SSEType", "KMS"},
                             {"KMSMasterKeyArn", d.sse_description->kms_master_key_arn}};
  }
  if (!d.replicas.empty()) out["Replicas"] = EncodeReplicas(d.replicas);
  if (!d.global_table_version.empty()) out["GlobalTableVersion"] = d.global_table_version;
  if (d.multi_region_consistency) {
    out["MultiRegionConsistency"] =
        *d.multi_region_consistency == MultiRegionConsistency::kStrong ? "STRONG" : "EVENTUAL";
  }
  if (!d.global_table_witnesses.empty()) {
    Json witnesses = Json::array();
    for (const WitnessDescription& w : d.global_table_witnesses) {
      witnesses.push_back(Json{{"RegionName", w.region_name}, {"WitnessStatus", w.witness_status}});
    }
    out["GlobalTableWitnesses"] = std::move(witnesses);
  }
  if (d.table_class_summary) {
    Json summary = {{"TableClass", TableClassName(d.table_class_summary->table_class)}};
    if (d.table_class_summary->last_update_micros) {
      summary["LastUpdateDateTime"] = Seconds(*d.table_class_summary->last_update_micros);
    }
    out["TableClassSummary"] = std::move(summary);
  }
  EncodeOnDemandThroughput(d.settings, &out);
  EncodeWarmThroughput(d.settings, "ACTIVE", &out);
  if (!d.local_secondary_indexes.empty()) {
    Json lsis = Json::array();
    for (const LocalSecondaryIndexDescription& i : d.local_secondary_indexes) {
      lsis.push_back({{"IndexName", i.def.index_name},
                      {"KeySchema", EncodeKeySchema(i.def.key_schema)},
                      {"Projection", EncodeProjection(i.def.projection)},
                      {"IndexSizeBytes", i.index_size_bytes},
                      {"ItemCount", i.item_count},
                      {"IndexArn", i.index_arn}});
    }
    out["LocalSecondaryIndexes"] = std::move(lsis);
  }
  if (!d.global_secondary_indexes.empty()) {
    Json gsis = Json::array();
    for (const GlobalSecondaryIndexDescription& i : d.global_secondary_indexes) {
      Json gsi = {{"IndexName", i.def.index_name},
                  {"KeySchema", EncodeKeySchema(i.def.key_schema)},
                  {"Projection", EncodeProjection(i.def.projection)},
                  {"IndexStatus", TableStatusName(i.index_status)},
                  {"ProvisionedThroughput", EncodeThroughput(i.provisioned_throughput)},
                  {"IndexSizeBytes", i.index_size_bytes},
                  {"ItemCount", i.item_count},
                  {"IndexArn", i.index_arn}};
      if (i.backfilling) gsi["Backfilling"] = true;
      EncodeOnDemandThroughput(i.settings, &gsi);
      EncodeWarmThroughput(i.settings, TableStatusName(i.index_status), &gsi);
      gsis.push_back(std::move(gsi));
    }
    out["GlobalSecondaryIndexes"] = std::move(gsis);
  }
  if (!d.vector_indexes.empty()) out["VectorIndexes"] = VectorIndexesJson(d.vector_indexes);
  return out;
}

}  // namespace

Json TableDescriptionJson(const TableDescription& d) { return EncodeTableDescription(d); }
Json KeySchemaJson(const std::vector<KeySchemaElement>& schema) {
  return EncodeKeySchema(schema);
}
Json ProjectionJson(const Projection& p) { return EncodeProjection(p); }
Json SecondsJson(int64_t micros) { return Seconds(micros); }

}  // namespace dynarock::api::ops
