#include "api/encoded_item_json.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "api/json_codec.h"
#include "engine/value/encoded_item.h"

namespace dynarock::api {

namespace {

// The length of the well-formed UTF-8 sequence (RFC 3629, Table 3-7 of the
// Unicode standard: no overlongs, surrogates or code points past U+10FFFF)
// that starts `s` at `i`, or 0 when there is none. nlohmann's decoder
// accepts exactly these.
size_t Utf8SequenceLength(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
  auto cont = [&](size_t k, uint8_t lo = 0x80, uint8_t hi = 0xbf) {
    return k < s.size() && byte(k) >= lo && byte(k) <= hi;
  };
  const uint8_t b = byte(i);
  if (b < 0x80) return 1;
  if (b >= 0xc2 && b <= 0xdf) return cont(i + 1) ? 2 : 0;
  if (b == 0xe0) return cont(i + 1, 0xa0) && cont(i + 2) ? 3 : 0;
  if ((b >= 0xe1 && b <= 0xec) || b == 0xee || b == 0xef) {
    return cont(i + 1) && cont(i + 2) ? 3 : 0;
  }
  if (b == 0xed) return cont(i + 1, 0x80, 0x9f) && cont(i + 2) ? 3 : 0;
  if (b == 0xf0) return cont(i + 1, 0x90) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  if (b >= 0xf1 && b <= 0xf3) {
    return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  if (b == 0xf4) {
    return cont(i + 1, 0x80, 0x8f) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
}

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

namespace {

// Bytes JSON text carries as they are: printable ASCII but '"' and '\\'
// (nlohmann leaves 0x7f unescaped too). A lookup table, because this test
// runs on every byte of every string of every item a read returns.
constexpr std::array<bool, 256> kPlainJsonByte = [] {
  std::array<bool, 256> plain{};
  for (int c = 0x20; c < 0x80; ++c) plain[c] = c != '"' && c != '\\';
  return plain;
}();

// Whether any of the 8 bytes of `w` is not plain (the bit tricks of
// https://graphics.stanford.edu/~seander/bithacks.html: a byte below 0x20,
// at or above 0x80, '"' or '\\'). Exact for "any"; which byte is found by
// the table.
inline bool AnyNotPlain(uint64_t w) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  constexpr uint64_t kHigh = 0x8080808080808080ULL;
  const auto has_zero = [](uint64_t x) { return (x - kOnes) & ~x & kHigh; };
  const uint64_t below_space = (w - kOnes * 0x20) & ~w & kHigh;
  return ((w & kHigh) | below_space | has_zero(w ^ (kOnes * '"')) |
          has_zero(w ^ (kOnes * '\\'))) != 0;
}

// The end of the run of plain bytes of s starting at i.
inline size_t PlainRunEnd(std::string_view s, size_t i) {
  while (i + 8 <= s.size()) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    if (AnyNotPlain(w)) break;
    i += 8;
  }
  while (i < s.size() && kPlainJsonByte[static_cast<uint8_t>(s[i])]) ++i;
  return i;
}

}  // namespace

void AppendJsonString(std::string_view s, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  const size_t start = out->size();
  out->reserve(start + s.size() + 2);
  out->push_back('"');
  size_t i = 0;
  while (i < s.size()) {
    // Runs of plain bytes (most strings are one run) go in one append.
    const size_t end = PlainRunEnd(s, i);
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
