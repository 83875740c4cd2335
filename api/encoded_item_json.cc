#include "api/encoded_item_json.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "api/json_bytes.h"
#include "api/json_codec.h"
#include "engine/value/encoded_item.h"

namespace dynarock::api {

namespace {

// Renders the visit as DumpJson(EncodeItem(item)) would.
class JsonWriter : public EncodedItemVisitor {
 public:
  explicit JsonWriter(std::string* out) : out_(out) {
    out_->push_back('{');
    frames_.push_back({AttrType::kM, true});  // the item: a map of names
  }
  void Finish() { out_->push_back('}'); }

  void Name(std::string_view name) override {
    Frame& f = frames_.back();
    if (!f.first) out_->push_back(',');
    f.first = false;
    AppendJsonString(name, out_);
    out_->push_back(':');
  }
  void Bytes(AttrType type, std::string_view bytes) override {
    const bool member = BeforeValue();
    if (!member) out_->append(type == AttrType::kS ? R"({"S":)" : R"({"B":)");
    if (type == AttrType::kS) {
      AppendJsonString(bytes, out_);
    } else {
      // Base64 needs no escaping.
      out_->push_back('"');
      out_->append(Base64Encode(bytes));
      out_->push_back('"');
    }
    if (!member) out_->push_back('}');
  }
  void Num(const EncodedNumber& n) override {
    const bool member = BeforeValue();
    if (!member) out_->append(R"({"N":)");
    out_->push_back('"');  // digits, '-' and '.' need no escaping
    AppendNumberText(n, out_);
    out_->push_back('"');
    if (!member) out_->push_back('}');
  }
  void Bool(bool b) override {
    BeforeValue();
    out_->append(b ? R"({"BOOL":true})" : R"({"BOOL":false})");
  }
  void Null() override {
    BeforeValue();
    out_->append(R"({"NULL":true})");
  }
  void Begin(AttrType type, size_t) override {
    BeforeValue();
    switch (type) {
      case AttrType::kL: out_->append(R"({"L":[)"); break;
      case AttrType::kM: out_->append(R"({"M":{)"); break;
      case AttrType::kSS: out_->append(R"({"SS":[)"); break;
      case AttrType::kBS: out_->append(R"({"BS":[)"); break;
      default: out_->append(R"({"NS":[)"); break;
    }
    frames_.push_back({type, true});
  }
  void End(AttrType type) override {
    frames_.pop_back();
    out_->append(type == AttrType::kM ? "}}" : "]}");
  }

 private:
  struct Frame {
    AttrType type;
    bool first;
  };

  // Before a value: the comma of a list or set element. True when the
  // value is a set member (written bare, not as an AttributeValue).
  bool BeforeValue() {
    Frame& f = frames_.back();
    if (f.type == AttrType::kM) return false;  // Name() wrote the comma
    if (!f.first) out_->push_back(',');
    f.first = false;
    return f.type != AttrType::kL;
  }

  std::string* out_;
  std::vector<Frame> frames_;
};

}  // namespace

void AppendJsonString(std::string_view s, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  const size_t start = out->size();
  out->reserve(start + s.size() + 2);
  out->push_back('"');
  size_t i = 0;
  while (i < s.size()) {
    // Runs of plain bytes (most strings are one run) go in one append.
    const size_t end = PlainJsonRunEnd(s, i);
    out->append(s.data() + i, end - i);
    i = end;
    if (i == s.size()) break;
    const uint8_t c = static_cast<uint8_t>(s[i]);
    if (c >= 0x80) {
      const size_t n = Utf8SequenceLength(s, i);
      if (n == 0) {
        // Not UTF-8: leave the replacement rules to nlohmann itself.
        out->resize(start);
        out->append(DumpJson(Json(std::string(s))));
        return;
      }
      out->append(s.substr(i, n));
      i += n;
      continue;
    }
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default:  // the other control characters
        out->append("\\u00");
        out->push_back(kHex[c >> 4]);
        out->push_back(kHex[c & 0xf]);
    }
    ++i;
  }
  out->push_back('"');
}

void AppendItemJson(const Item& item, std::string* out) {
  out->push_back('{');
  bool first = true;
  for (const auto& [name, value] : item) {
    if (!first) out->push_back(',');
    first = false;
    AppendJsonString(name, out);
    out->push_back(':');
    switch (value.type()) {
      case AttrType::kS:
        out->append(R"({"S":)");
        AppendJsonString(value.s(), out);
        out->push_back('}');
        break;
      case AttrType::kN:
        out->append(R"({"N":")");  // digits, '-' and '.' need no escaping
        Number::AppendText(value.n().negative(), value.n().digits(), value.n().exponent(), out);
        out->append(R"("})");
        break;
      case AttrType::kB:
        out->append(R"({"B":")");  // base64 needs no escaping
        out->append(Base64Encode(value.b()));
        out->append(R"("})");
        break;
      case AttrType::kBool:
        out->append(value.boolean() ? R"({"BOOL":true})" : R"({"BOOL":false})");
        break;
      case AttrType::kNull:
        out->append(R"({"NULL":true})");
        break;
      default:
        out->append(DumpJson(EncodeAttributeValue(value)));
        break;
    }
  }
  out->push_back('}');
}

Status AppendEncodedItemJson(std::string_view encoded, std::string* out) {
  JsonWriter writer(out);
  DR_RETURN_IF_ERROR(VisitEncodedItem(encoded, &writer));
  writer.Finish();
  return Status::OK();
}

}  // namespace dynarock::api
