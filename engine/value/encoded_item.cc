#include "engine/value/encoded_item.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/value/item_reader.h"
#include "engine/value/number.h"

namespace dynarock {

namespace {

// item_size.cc's rules.
constexpr int64_t kNullOrBoolBytes = 1;
constexpr int64_t kDocumentOverheadBytes = 3;
constexpr int64_t kDocumentElementOverheadBytes = 1;

// DynamoDB's size of a number of `digit_count` significant digits
// (item_size.cc's NumberSize).
int64_t NumberSize(size_t digit_count, bool negative) {
  return static_cast<int64_t>((digit_count + 1) / 2) + 1 + (negative ? 1 : 0);
}

// Adds up ItemSize's rules as the reader walks the item: a name counts its
// bytes, a document (L, M) 3 bytes plus 1 per element, a set the sum of its
// members. Open containers keep their running total on a stack.
class SizeVisitor {
 public:
  static constexpr bool kUnpackDigits = false;

  int64_t total() const { return total_; }

  void Name(std::string_view name) { name_bytes_ = name.size(); }
  void Bytes(AttrType, std::string_view bytes) {
    Add(static_cast<int64_t>(bytes.size()));
  }
  void Num(const EncodedNumber& n, size_t digit_count) {
    Add(NumberSize(digit_count, n.negative));
  }
  void Bool(bool) { Add(kNullOrBoolBytes); }
  void Null() { Add(kNullOrBoolBytes); }
  void Begin(AttrType type, size_t) {
    const bool document = type == AttrType::kL || type == AttrType::kM;
    open_.push_back(
        Open{type, name_bytes_, document ? kDocumentOverheadBytes : 0});
  }
  void End(AttrType) {
    const Open done = open_.back();
    open_.pop_back();
    name_bytes_ = done.name_bytes;
    Add(done.size);
  }

 private:
  struct Open {
    AttrType type;
    size_t name_bytes;  // the container's own name, restored at its End
    int64_t size;
  };

  void Add(int64_t value_size) {
    if (open_.empty()) {
      total_ += static_cast<int64_t>(name_bytes_) + value_size;
      return;
    }
    Open& top = open_.back();
    switch (top.type) {
      case AttrType::kL:
        top.size += kDocumentElementOverheadBytes + value_size;
        return;
      case AttrType::kM:
        top.size += kDocumentElementOverheadBytes +
                    static_cast<int64_t>(name_bytes_) + value_size;
        return;
      default:  // a set member
        top.size += value_size;
        return;
    }
  }

  int64_t total_ = 0;
  size_t name_bytes_ = 0;
  std::vector<Open> open_;
};

// Hands the walk to a client's EncodedItemVisitor.
class ForwardingVisitor {
 public:
  static constexpr bool kUnpackDigits = true;

  explicit ForwardingVisitor(EncodedItemVisitor* v) : v_(v) {}

  void Name(std::string_view name) { v_->Name(name); }
  void Bytes(AttrType type, std::string_view bytes) { v_->Bytes(type, bytes); }
  void Num(const EncodedNumber& n, size_t) { v_->Num(n); }
  void Bool(bool b) { v_->Bool(b); }
  void Null() { v_->Null(); }
  void Begin(AttrType type, size_t count) { v_->Begin(type, count); }
  void End(AttrType type) { v_->End(type); }

 private:
  EncodedItemVisitor* v_;
};

}  // namespace

Result<int64_t> EncodedItemSize(std::string_view encoded) {
  SizeVisitor sizer;
  DR_RETURN_IF_ERROR(item_format::ReadItem(encoded, sizer));
  return sizer.total();
}

Status VisitEncodedItem(std::string_view encoded, EncodedItemVisitor* visitor) {
  ForwardingVisitor forward(visitor);
  return item_format::ReadItem(encoded, forward);
}

void AppendNumberText(const EncodedNumber& n, std::string* out) {
  Number::AppendText(n.negative, n.digits, n.exponent, out);
}

}  // namespace dynarock
