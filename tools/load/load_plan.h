// tools/load/load_plan.h
//
// LoadPlan: what `dynarock load` will do for one input file, independent of
// the file's format. For each table, the CreateTable request to send and the
// items to write, each with where it came from in the file so that a bad
// item can be reported by position. Built by model_file.h, checked by
// item_check.h, executed by loader.h.
//
// Plain values; no invariants beyond those listed on the members.

#ifndef DYNAROCK_TOOLS_LOAD_LOAD_PLAN_H_
#define DYNAROCK_TOOLS_LOAD_LOAD_PLAN_H_

#include <string>
#include <vector>

#include "api/json_codec.h"

namespace dynarock::tools::load {

// One item to write, as DynamoDB JSON (an object of name -> AttributeValue),
// not yet checked.
struct PlannedItem {
  api::Json item;
  // Index in the file's item list: the table's TableData, the facet's
  // TableData when `facet` is set, the table's PutRequest list, or the
  // spec's records.
  size_t index = 0;
  std::string facet;  // NoSQL Workbench facet name; empty otherwise
};

struct PlannedTable {
  std::string name;
  // A complete CreateTable request body (TableName, KeySchema,
  // AttributeDefinitions, BillingMode, ProvisionedThroughput,
  // GlobalSecondaryIndexes); the key and index types the items are checked
  // against are read from it.
  api::Json create_table;
  std::vector<PlannedItem> items;
};

// The formats `dynarock load` reads (detected from the content).
enum class FileFormat {
  kWorkbench,       // NoSQL Workbench data model, versions 1.0, 2.0, 3.0
  kBatchWriteItem,  // a BatchWriteItem RequestItems body (sample tables)
  kSpec,            // dynamodb-spec-generator: tableDefinition + records
};

struct LoadPlan {
  std::string source;  // the file name, for messages
  FileFormat format = FileFormat::kWorkbench;
  std::vector<PlannedTable> tables;
};

}  // namespace dynarock::tools::load

#endif  // DYNAROCK_TOOLS_LOAD_LOAD_PLAN_H_
