// api/ops/item_request_reader.cc
//
// One SAX handler for both operations. Every event outside the accepted
// shape makes it return false, which stops the reader (ReadPlainJson) and
// makes it answer nullopt: refusing is always safe (the JSON tree then decides),
// so the handler only has to be sure of what it accepts.

#include "api/ops/item_request_reader.h"

#include <cstdint>
#include <string>
#include <utility>

#include "api/json_codec.h"
#include "api/plain_json_reader.h"
#include "api/validate.h"

namespace dynarock::api::ops {

namespace {

// TableName as ValidateRequest accepts it (TableNameMember): 1..255
// characters (all ASCII, so bytes are characters) of the name pattern.
bool IsValidTableName(std::string_view s) {
  return s.size() <= 255 && MatchesNamePattern(s);
}

enum class Op { kPut, kGet };

class ItemRequestSax {
 public:
  explicit ItemRequestSax(Op op) : op_(op) {}

  // Set once the body was read whole and is of the accepted shape.
  bool complete() const {
    return done_ && seen_ & kTableName && seen_ & kItem;
  }
  std::string& table_name() { return table_name_; }
  Item& item() { return item_; }
  bool consistent_read() const { return consistent_read_; }

  // --- the SAX interface ReadPlainJson drives ----------------------------

  bool start_object(std::size_t) {
    switch (level_) {
      case Level::kNone:
        if (done_) return false;
        level_ = Level::kRequest;
        return true;
      case Level::kRequest:
        if (member_ != kItem) return false;
        level_ = Level::kItem;
        return true;
      case Level::kItem:
        level_ = Level::kValue;
        datatype_ = Datatype::kNone;
        value_.reset();
        return true;
      case Level::kValue:
        return false;  // L, M, or an object where a scalar goes
    }
    return false;
  }

  bool end_object() {
    switch (level_) {
      case Level::kRequest:
        level_ = Level::kNone;
        done_ = true;
        return true;
      case Level::kItem:
        level_ = Level::kRequest;
        return true;
      case Level::kValue:
        // No datatype is the tree path's EmptyAttributeValue error; a
        // duplicate name is the tree's last-one-wins: both left to it.
        if (!value_) return false;
        level_ = Level::kItem;
        return item_.emplace(std::move(name_), *std::move(value_)).second;
      case Level::kNone:
        return false;
    }
    return false;
  }

  bool key(std::string& k) {
    switch (level_) {
      case Level::kRequest: {
        uint32_t m = 0;
        if (k == "TableName") {
          m = kTableName;
        } else if (k == (op_ == Op::kPut ? "Item" : "Key")) {
          m = kItem;
        } else if (op_ == Op::kGet && k == "ConsistentRead") {
          m = kConsistentRead;
        } else if (op_ == Op::kPut && k == "ReturnValues") {
          m = kReturnValues;
        } else if (k == "ReturnConsumedCapacity") {
          m = kReturnConsumedCapacity;
        } else {
          return false;
        }
        if (seen_ & m) return false;  // duplicate member
        seen_ |= m;
        member_ = m;
        return true;
      }
      case Level::kItem:
        name_ = k;
        return true;
      case Level::kValue:
        // A second datatype is the tree path's error to report.
        if (datatype_ != Datatype::kNone) return false;
        if (k == "S") {
          datatype_ = Datatype::kS;
        } else if (k == "N") {
          datatype_ = Datatype::kN;
        } else if (k == "B") {
          datatype_ = Datatype::kB;
        } else if (k == "BOOL") {
          datatype_ = Datatype::kBool;
        } else if (k == "NULL") {
          datatype_ = Datatype::kNull;
        } else {
          return false;
        }
        return true;
      case Level::kNone:
        return false;
    }
    return false;
  }

  bool string(std::string& s) {
    if (level_ == Level::kRequest) {
      if (member_ == kTableName) {
        if (!IsValidTableName(s)) return false;
        table_name_ = s;
        return true;
      }
      // ReturnValues, ReturnConsumedCapacity: NONE is what absent means.
      return (member_ == kReturnValues || member_ == kReturnConsumedCapacity) &&
             s == "NONE";
    }
    if (level_ != Level::kValue || value_) return false;
    switch (datatype_) {
      case Datatype::kS:
        value_ = AttributeValue::S(s);
        return true;
      case Datatype::kN: {
        Result<Number> n = Number::Parse(s);
        if (!n.ok()) return false;
        value_ = AttributeValue::N(std::move(n).value());
        return true;
      }
      case Datatype::kB: {
        Result<std::string> bytes = Base64Decode(s);
        if (!bytes.ok()) return false;
        value_ = AttributeValue::B(std::move(bytes).value());
        return true;
      }
      default:
        return false;
    }
  }

  bool boolean(bool b) {
    if (level_ == Level::kRequest) {
      if (member_ != kConsistentRead) return false;
      consistent_read_ = b;
      return true;
    }
    if (level_ != Level::kValue || value_) return false;
    if (datatype_ == Datatype::kBool) {
      value_ = AttributeValue::Bool(b);
      return true;
    }
    if (datatype_ == Datatype::kNull && b) {  // {"NULL": false} is an error
      value_ = AttributeValue::Null();
      return true;
    }
    return false;
  }

 private:
  enum class Level { kNone, kRequest, kItem, kValue };
  // Top-level members, as bits of seen_.
  static constexpr uint32_t kTableName = 1;
  static constexpr uint32_t kItem = 2;  // Item (PutItem) or Key (GetItem)
  static constexpr uint32_t kConsistentRead = 4;
  static constexpr uint32_t kReturnValues = 8;  // "NONE" only
  static constexpr uint32_t kReturnConsumedCapacity = 16;  // "NONE" only
  enum class Datatype { kNone, kS, kN, kB, kBool, kNull };

  const Op op_;
  Level level_ = Level::kNone;
  bool done_ = false;
  uint32_t seen_ = 0;
  uint32_t member_ = 0;  // the top-level member being read
  std::string table_name_;
  Item item_;
  bool consistent_read_ = false;
  std::string name_;                       // the attribute being read
  Datatype datatype_ = Datatype::kNone;    // its datatype's key, once read
  std::optional<AttributeValue> value_;    // its value, once read
};

// Reads `body` with `sax`; true if it was read whole and accepted.
bool Read(std::string_view body, ItemRequestSax* sax) {
  return ReadPlainJson(body, sax) && sax->complete();
}

}  // namespace

std::optional<PutItemRequest> ReadPutItemRequest(std::string_view body) {
  ItemRequestSax sax(Op::kPut);
  if (!Read(body, &sax)) return std::nullopt;
  PutItemRequest req;
  req.table_name = std::move(sax.table_name());
  req.item = std::move(sax.item());
  return req;
}

std::optional<GetItemRequest> ReadGetItemRequest(std::string_view body) {
  ItemRequestSax sax(Op::kGet);
  if (!Read(body, &sax)) return std::nullopt;
  GetItemRequest req;
  req.table_name = std::move(sax.table_name());
  req.key = std::move(sax.item());
  req.consistent_read = sax.consistent_read();
  return req;
}

}  // namespace dynarock::api::ops
