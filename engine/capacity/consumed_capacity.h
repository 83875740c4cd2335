// engine/capacity/consumed_capacity.h
//
// What a request consumed, in DynamoDB's capacity units, and the rounding
// rules that turn bytes into units. Every engine operation meters itself
// (metering is always on, whether or not throttling is); the api decides
// what to show from ReturnConsumedCapacity (NONE / TOTAL / INDEXES).
//
// Units (DynamoDB developer guide, "Capacity unit consumption"):
//   read:  ceil(bytes / 4 KB) units, at least 1; half when eventually
//          consistent (GSI reads always are);
//   write: ceil(bytes / 1 KB) units, at least 1.
// Callers choose WHAT is rounded: GetItem and each BatchGetItem item round
// separately; a Query or Scan page sums every item read (before filter and
// projection) and rounds once; a write rounds max(old, new) item size.

#ifndef DYNAROCK_ENGINE_CAPACITY_CONSUMED_CAPACITY_H_
#define DYNAROCK_ENGINE_CAPACITY_CONSUMED_CAPACITY_H_

#include <cstdint>
#include <map>
#include <string>

namespace dynarock {

inline constexpr int64_t kReadUnitBytes = 4096;
inline constexpr int64_t kWriteUnitBytes = 1024;

// Read units for `bytes` read as one unit of rounding.
double ReadUnits(int64_t bytes, bool consistent_read);
// Write units for an item write of `bytes` (max of old and new size).
double WriteUnits(int64_t bytes);

// DynamoDB's Capacity: read and write units consumed on one table or index.
struct Capacity {
  double read_units = 0;
  double write_units = 0;
  double units() const { return read_units + write_units; }
  Capacity& operator+=(const Capacity& o) {
    read_units += o.read_units;
    write_units += o.write_units;
    return *this;
  }
  bool operator==(const Capacity&) const = default;
};

// DynamoDB's ConsumedCapacity for one table: the base table's part and each
// secondary index's, by index name. An index appears only when the request
// read it or changed one of its entries.
struct ConsumedCapacity {
  std::string table_name;
  Capacity table;
  std::map<std::string, Capacity> global_secondary_indexes;
  std::map<std::string, Capacity> local_secondary_indexes;
  // VectorWriteRequestBytes of each vector index a write changed
  // (ReturnConsumedCapacity INDEXES; not part of Total()).
  std::map<std::string, double> vector_indexes;

  // The sum over the table and every index.
  Capacity Total() const;
  // Adds `other` (same table) into this one.
  void Merge(const ConsumedCapacity& other);
  bool operator==(const ConsumedCapacity&) const = default;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_CAPACITY_CONSUMED_CAPACITY_H_
