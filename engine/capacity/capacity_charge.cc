#include "engine/capacity/capacity_charge.h"

#include <unordered_map>

#include "engine/keys/key_codec.h"
#include "engine/value/value_text.h"

namespace dynarock {

namespace {

std::string Rendering(const AttributeValue& pk) {
  std::string s = RenderValue(pk);
  if (s.size() > kMaxPartitionKeyRendering) s.resize(kMaxPartitionKeyRendering);
  return s;
}

}  // namespace

Capacity CapacityCharge::Total() const {
  Capacity total;
  for (const PartitionUnits& p : parts) {
    total.read_units += p.read_units;
    total.write_units += p.write_units;
  }
  return total;
}

void Metering::Merge(const Metering& other) {
  consumed.Merge(other.consumed);
  charge.parts.insert(charge.parts.end(), other.charge.parts.begin(),
                      other.charge.parts.end());
}

void Metering::Scale(double factor) {
  auto scale = [factor](Capacity& c) {
    c.read_units *= factor;
    c.write_units *= factor;
  };
  scale(consumed.table);
  for (auto& [name, c] : consumed.global_secondary_indexes) scale(c);
  for (auto& [name, c] : consumed.local_secondary_indexes) scale(c);
  for (PartitionUnits& p : charge.parts) {
    p.read_units *= factor;
    p.write_units *= factor;
  }
}

PartitionUnits PartOf(uint32_t index_id, const AttributeValue& pk,
                      double read_units, double write_units) {
  return PartitionUnits{index_id, keys::PartitionHash(pk), Rendering(pk),
                        read_units, write_units};
}

PartitionUnits PartOfStorageKey(uint32_t index_id, std::string_view storage_key,
                                AttrType pk_type, double read_units,
                                double write_units) {
  return PartOfStorageKey(index_id, storage_key, {&pk_type, 1}, read_units,
                          write_units);
}

PartitionUnits PartOfStorageKey(uint32_t index_id, std::string_view storage_key,
                                std::span<const AttrType> pk_types,
                                double read_units, double write_units) {
  PartitionUnits part{index_id, 0, {}, read_units, write_units};
  if (storage_key.size() < keys::kHashedPrefixSize) return part;
  part.hash = keys::HashOfKey(storage_key);
  std::string_view rest = storage_key.substr(keys::kHashedPrefixSize);
  std::string rendering;
  for (AttrType type : pk_types) {
    Result<AttributeValue> pk = keys::DecodeOrdered(type, &rest);
    if (!pk.ok()) return part;
    if (!rendering.empty()) rendering += " | ";
    rendering += RenderValue(*pk);
    if (rendering.size() >= kMaxPartitionKeyRendering) break;
  }
  if (rendering.size() > kMaxPartitionKeyRendering) {
    rendering.resize(kMaxPartitionKeyRendering);
  }
  part.key = std::move(rendering);
  return part;
}

void AddToRuns(std::string_view storage_key, int64_t bytes,
               std::vector<PartitionRun>* runs) {
  const uint64_t hash = keys::HashOfKey(storage_key);
  if (runs->empty() || runs->back().hash != hash) {
    runs->push_back(PartitionRun{hash, std::string(storage_key), 0});
  }
  runs->back().bytes += bytes;
}

std::vector<PartitionUnits> SplitReadUnits(uint32_t index_id, AttrType pk_type,
                                           std::span<const PartitionRun> runs,
                                           double read_units) {
  return SplitReadUnits(index_id, {&pk_type, 1}, runs, read_units);
}

std::vector<PartitionUnits> SplitReadUnits(uint32_t index_id,
                                           std::span<const AttrType> pk_types,
                                           std::span<const PartitionRun> runs,
                                           double read_units) {
  // Group runs by hash (a page may come back to a partition only through
  // a hash collision, but grouping keeps the promise of one part per hash).
  std::vector<PartitionRun> groups;
  std::unordered_map<uint64_t, size_t> group_of;
  int64_t total_bytes = 0;
  for (const PartitionRun& run : runs) {
    total_bytes += run.bytes;
    auto [it, inserted] = group_of.emplace(run.hash, groups.size());
    if (inserted) {
      groups.push_back(run);
    } else {
      groups[it->second].bytes += run.bytes;
    }
  }
  if (groups.empty() || total_bytes <= 0) {
    return {PartitionUnits{index_id, 0, {}, read_units, 0}};
  }
  if (groups.size() > kMaxScanParts) {
    for (size_t i = kMaxScanParts; i < groups.size(); ++i) {
      groups[kMaxScanParts - 1].bytes += groups[i].bytes;
    }
    groups.resize(kMaxScanParts);
  }
  std::vector<PartitionUnits> parts;
  parts.reserve(groups.size());
  double given = 0;
  for (size_t i = 0; i < groups.size(); ++i) {
    // The last part takes the remainder, so the parts sum to read_units
    // exactly.
    const double units =
        i + 1 == groups.size()
            ? read_units - given
            : read_units * static_cast<double>(groups[i].bytes) /
                  static_cast<double>(total_bytes);
    given += units;
    parts.push_back(
        PartOfStorageKey(index_id, groups[i].first_key, pk_types, units, 0));
  }
  return parts;
}

}  // namespace dynarock
