// tools/load/item_check.h
//
// The checks `dynarock load` makes on every item before anything is
// written: valid DynamoDB JSON (decoded with api/json_codec, as the server
// decodes it), DynamoDB's value rules (non-empty sets without duplicates,
// nesting, 400 KB), the table's key attributes present with the declared
// types and non-empty, and GSI key attributes, when present, of the
// declared types and non-empty. The types are read from the plan's
// CreateTable request.
//
// Stateless functions; thread-safe.

#ifndef DYNAROCK_TOOLS_LOAD_ITEM_CHECK_H_
#define DYNAROCK_TOOLS_LOAD_ITEM_CHECK_H_

#include <string>
#include <vector>

#include "tools/load/load_plan.h"

namespace dynarock::tools::load {

struct InvalidItem {
  std::string source;  // the file
  std::string table;
  size_t index = 0;    // PlannedItem::index
  std::string facet;   // empty outside facets
  std::string reason;
};

// One line: "<file>: table T, item 3 (facet F): <reason>".
std::string FormatInvalidItem(const InvalidItem& invalid);

// The invalid items of `plan`, in file order.
std::vector<InvalidItem> CheckItems(const LoadPlan& plan);

// Why `item` cannot be written to the table `create_table` describes, or ""
// when it can.
std::string CheckItem(const api::Json& create_table, const api::Json& item);

}  // namespace dynarock::tools::load

#endif  // DYNAROCK_TOOLS_LOAD_ITEM_CHECK_H_
