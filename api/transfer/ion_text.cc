#include "api/transfer/ion_text.h"

#include <cstdint>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

#include "api/json_bytes.h"
#include "api/json_codec.h"
#include "engine/util/base64.h"
#include "engine/value/encoded_item.h"
#include "engine/value/number.h"

namespace dynarock::api {
namespace {

// --- Writing ------------------------------------------------------------

bool IsIdentifierStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}
bool IsIdentifierChar(char c) { return IsIdentifierStart(c) || (c >= '0' && c <= '9'); }

// A field name written bare: an identifier that is no keyword and does not
// start with '$' (which Ion keeps for symbol ids and system symbols).
bool IsBareSymbol(std::string_view s) {
  if (s.empty() || s[0] == '$' || !IsIdentifierStart(s[0])) return false;
  for (char c : s) {
    if (!IsIdentifierChar(c)) return false;
  }
  return s != "null" && s != "true" && s != "false" && s != "nan";
}

// `s` between `quote`s, with Ion's escapes for the quote, the backslash and
// control characters (\xHH is a code point in Ion text, so only ASCII
// bytes are escaped; the rest is UTF-8 as stored).
void AppendQuoted(std::string_view s, char quote, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back(quote);
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (ch == quote || ch == '\\') {
      out->push_back('\\');
      out->push_back(ch);
    } else if (ch == '\n') {
      out->append("\\n");
    } else if (ch == '\t') {
      out->append("\\t");
    } else if (ch == '\r') {
      out->append("\\r");
    } else if (c < 0x20 || c == 0x7f) {
      out->append("\\x");
      out->push_back(kHex[c >> 4]);
      out->push_back(kHex[c & 15]);
    } else {
      out->push_back(ch);
    }
  }
  out->push_back(quote);
}

void AppendFieldName(std::string_view name, std::string* out) {
  if (IsBareSymbol(name)) {
    out->append(name);
  } else {
    AppendQuoted(name, '\'', out);
  }
}

// An Ion decimal of the same value: the significant digits D and exponent
// E of D x 10^E, written "D." (E = 0), "DdE" (E > 0: 6d2 is 600), or with
// a decimal point ("1.5", "0.025"); "DdE" again for tiny magnitudes.
void AppendDecimal(const EncodedNumber& n, std::string* out) {
  if (n.digits.empty()) {
    out->append("0.");
    return;
  }
  if (n.negative) out->push_back('-');
  const std::string_view digits = n.digits;  // value = 0.digits x 10^exponent
  const int count = static_cast<int>(digits.size());
  const int point = n.exponent;              // digits before the decimal point
  const int ion_exponent = point - count;    // value = digits x 10^ion_exponent
  if (ion_exponent == 0) {
    out->append(digits);
    out->push_back('.');
  } else if (ion_exponent > 0) {
    out->append(digits);
    out->push_back('d');
    out->append(std::to_string(ion_exponent));
  } else if (point > 0) {
    out->append(digits.substr(0, static_cast<size_t>(point)));
    out->push_back('.');
    out->append(digits.substr(static_cast<size_t>(point)));
  } else if (point >= -6) {
    out->append("0.");
    out->append(static_cast<size_t>(-point), '0');
    out->append(digits);
  } else {
    out->append(digits);
    out->push_back('d');
    out->append(std::to_string(ion_exponent));
  }
}

// Renders the walk of a stored item (VisitEncodedItem) as the Ion of its
// export line. The walk gives values in order; this only tracks, per open
// container, whether a separator is due.
class IonWriter final : public EncodedItemVisitor {
 public:
  explicit IonWriter(std::string* out) : out_(out) {
    frames_.push_back(Frame{/*named=*/true, /*first=*/true});  // the item
  }

  void Name(std::string_view name) override {
    Frame& f = frames_.back();
    if (!f.first) out_->push_back(',');
    f.first = false;
    AppendFieldName(name, out_);
    out_->push_back(':');
  }
  void Bytes(AttrType type, std::string_view bytes) override {
    Separate();
    if (type == AttrType::kS) {
      AppendQuoted(bytes, '"', out_);
    } else {
      out_->append("{{");
      out_->append(Base64Encode(bytes));
      out_->append("}}");
    }
  }
  void Num(const EncodedNumber& n) override {
    Separate();
    AppendDecimal(n, out_);
  }
  void Bool(bool b) override {
    Separate();
    out_->append(b ? "true" : "false");
  }
  void Null() override {
    Separate();
    out_->append("null");
  }
  void Begin(AttrType type, size_t) override {
    Separate();
    switch (type) {
      case AttrType::kM: out_->push_back('{'); break;
      case AttrType::kSS: out_->append("$dynamodb_SS::["); break;
      case AttrType::kNS: out_->append("$dynamodb_NS::["); break;
      case AttrType::kBS: out_->append("$dynamodb_BS::["); break;
      default: out_->push_back('['); break;
    }
    frames_.push_back(Frame{type == AttrType::kM, true});
  }
  void End(AttrType type) override {
    out_->push_back(type == AttrType::kM ? '}' : ']');
    frames_.pop_back();
  }

 private:
  struct Frame {
    bool named;  // the item or a map: Name writes the separators
    bool first;
  };
  // A comma before every element of a list or set but the first.
  void Separate() {
    Frame& f = frames_.back();
    if (f.named) return;
    if (!f.first) out_->push_back(',');
    f.first = false;
  }

  std::string* const out_;
  std::vector<Frame> frames_;
};

// --- Reading ------------------------------------------------------------

enum class SetKind { kNone, kSS, kNS, kBS };

// One Ion container being read: a struct (closed by '}') or a list (']').
struct Container {
  char close = '}';
  SetKind set = SetKind::kNone;  // a list's $dynamodb_* annotation
  AttributeValue::Map members;
  AttributeValue::List elements;
  std::string field;  // a struct's current field name
};

class IonRecordReader {
 public:
  explicit IonRecordReader(std::string_view text) : text_(text) {}

  // The next record into `*record`; false at the end of the text.
  bool Next(Result<Item>* record) {
    while (pending_.empty()) {
      Status s = SkipSpace();
      if (!s.ok()) {
        *record = s;
        pos_ = text_.size();
        return true;
      }
      if (pos_ >= text_.size()) return false;
      if (AtVersionMarker()) {
        pos_ += kVersionMarker.size();
        continue;
      }
      Result<AttributeValue> value = ReadValue();
      if (!value.ok()) {
        *record = value.status();
        SkipToNextLine();
        return true;
      }
      if (value->type() == AttrType::kL) {
        // A list of records, as the import guide's example writes them.
        for (AttributeValue& v : value->mutable_l()) pending_.push_back(std::move(v));
        continue;
      }
      pending_.push_back(std::move(value).value());
    }
    const AttributeValue value = std::move(pending_.front());
    pending_.pop_front();
    if (value.type() != AttrType::kM) {
      *record = Error("a record must be a struct {Item:{...}}");
      return true;
    }
    const auto it = value.m().find("Item");
    if (it == value.m().end() || it->second.type() != AttrType::kM) {
      *record = Error("the record has no Item struct");
      return true;
    }
    *record = Item(it->second.m());
    return true;
  }

 private:
  static constexpr std::string_view kVersionMarker = "$ion_1_0";

  Status Error(std::string_view what) {
    // Lines counted forward from the last count: every error costs only
    // the text since the previous one.
    for (; counted_ < pos_ && counted_ < text_.size(); ++counted_) {
      if (text_[counted_] == '\n') ++line_;
    }
    return Status::Validation("Invalid Ion at line " + std::to_string(line_) + ": " +
                              std::string(what));
  }

  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  bool LookingAt(std::string_view s) const { return text_.substr(pos_, s.size()) == s; }

  bool AtVersionMarker() const {
    return LookingAt(kVersionMarker) && !IsIdentifierChar(Peek(kVersionMarker.size()));
  }

  void SkipToNextLine() {
    const size_t nl = text_.find('\n', pos_);
    pos_ = nl == std::string_view::npos ? text_.size() : nl + 1;
  }

  // Whitespace and comments.
  Status SkipSpace() {
    while (!AtEnd()) {
      const char c = Peek();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
        ++pos_;
      } else if (c == '/' && Peek(1) == '/') {
        const size_t nl = text_.find('\n', pos_);
        pos_ = nl == std::string_view::npos ? text_.size() : nl + 1;
      } else if (c == '/' && Peek(1) == '*') {
        const size_t end = text_.find("*/", pos_ + 2);
        if (end == std::string_view::npos) return Error("unterminated comment");
        pos_ = end + 2;
      } else {
        break;
      }
    }
    return Status::OK();
  }

  std::string_view Identifier() {
    const size_t start = pos_;
    while (!AtEnd() && IsIdentifierChar(Peek())) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  // The body of a quoted string or symbol after its opening quote(s), up
  // to `close` (one quote, or "'''"), escapes decoded.
  Status ReadQuoted(std::string_view close, bool long_string, std::string* out) {
    while (true) {
      if (AtEnd()) return Error("unterminated string");
      if (LookingAt(close)) {
        pos_ += close.size();
        return Status::OK();
      }
      const char c = Peek();
      if (c == '\n' && !long_string) return Error("line break in a string");
      if (c != '\\') {
        out->push_back(c);
        ++pos_;
        continue;
      }
      ++pos_;
      const char e = Peek();
      ++pos_;
      switch (e) {
        case 'a': out->push_back('\a'); break;
        case 'b': out->push_back('\b'); break;
        case 't': out->push_back('\t'); break;
        case 'n': out->push_back('\n'); break;
        case 'f': out->push_back('\f'); break;
        case 'r': out->push_back('\r'); break;
        case 'v': out->push_back('\v'); break;
        case '0': out->push_back('\0'); break;
        case '"': case '\'': case '?': case '\\': case '/': out->push_back(e); break;
        case '\n': break;  // a line continuation
        case 'x': case 'u': case 'U': {
          uint32_t cp = 0;
          DR_RETURN_IF_ERROR(ReadHex(e == 'x' ? 2 : e == 'u' ? 4 : 8, &cp));
          if (cp >= 0xD800 && cp <= 0xDBFF && LookingAt("\\u")) {
            pos_ += 2;
            uint32_t low = 0;
            DR_RETURN_IF_ERROR(ReadHex(4, &low));
            if (low < 0xDC00 || low > 0xDFFF) return Error("unpaired surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) {
            return Error("invalid code point escape");
          }
          AppendUtf8(cp, out);
          break;
        }
        default:
          return Error("invalid escape");
      }
    }
  }

  Status ReadHex(int digits, uint32_t* cp) {
    for (int i = 0; i < digits; ++i) {
      const int d = HexDigit(Peek());
      if (d < 0) return Error("invalid hex escape");
      *cp = *cp * 16 + static_cast<uint32_t>(d);
      ++pos_;
    }
    return Status::OK();
  }

  // '''...''' segments separated by whitespace or comments, concatenated.
  Status ReadLongString(std::string* out) {
    while (LookingAt("'''")) {
      pos_ += 3;
      DR_RETURN_IF_ERROR(ReadQuoted("'''", true, out));
      const size_t after = pos_;
      DR_RETURN_IF_ERROR(SkipSpace());
      if (!LookingAt("'''")) pos_ = after;
    }
    return Status::OK();
  }

  // A symbol (identifier or 'quoted') or a string, as a struct field name.
  Status ReadFieldName(std::string* out) {
    out->clear();
    if (LookingAt("'''")) return ReadLongString(out);
    if (Peek() == '\'' || Peek() == '"') {
      const char quote = Peek();
      ++pos_;
      return ReadQuoted(std::string_view(&quote, 1), false, out);
    }
    if (IsIdentifierStart(Peek())) {
      out->assign(Identifier());
      return Status::OK();
    }
    return Error("expected a field name");
  }

  // Annotations before a value (`a::b::value`): the $dynamodb_* one, if
  // any; others are metadata DynamoDB has no use for.
  Status ReadAnnotations(SetKind* set) {
    *set = SetKind::kNone;
    while (true) {
      const size_t start = pos_;
      std::string symbol;
      if (Peek() == '\'' && !LookingAt("'''")) {
        ++pos_;
        DR_RETURN_IF_ERROR(ReadQuoted("'", false, &symbol));
      } else if (IsIdentifierStart(Peek())) {
        symbol.assign(Identifier());
      } else {
        return Status::OK();
      }
      DR_RETURN_IF_ERROR(SkipSpace());
      if (!LookingAt("::")) {
        pos_ = start;  // a symbol value, not an annotation
        return Status::OK();
      }
      pos_ += 2;
      DR_RETURN_IF_ERROR(SkipSpace());
      if (symbol == "$dynamodb_SS") *set = SetKind::kSS;
      if (symbol == "$dynamodb_NS") *set = SetKind::kNS;
      if (symbol == "$dynamodb_BS") *set = SetKind::kBS;
    }
  }

  // A number: int (decimal, 0x, 0b), decimal or float. Timestamps,
  // nan and infinities are not DynamoDB numbers.
  Result<AttributeValue> ReadNumber() {
    const size_t start = pos_;
    if (Peek() == '-' || Peek() == '+') ++pos_;
    while (!AtEnd()) {
      const char c = Peek();
      const bool sign_after_exponent =
          (c == '-' || c == '+') && pos_ > start &&
          (text_[pos_ - 1] == 'e' || text_[pos_ - 1] == 'E' || text_[pos_ - 1] == 'd' ||
           text_[pos_ - 1] == 'D');
      if (IsIdentifierChar(c) || c == '.' || c == ':' || sign_after_exponent ||
          (c == '-' && pos_ > start)) {
        ++pos_;
      } else {
        break;
      }
    }
    std::string_view token = text_.substr(start, pos_ - start);
    if (token == "-inf" || token == "+inf") {
      return Error("infinity is not a DynamoDB number");
    }
    std::string cleaned;
    for (char c : token) {
      if (c != '_') cleaned.push_back(c);
    }
    const bool negative = !cleaned.empty() && cleaned[0] == '-';
    std::string_view body = std::string_view(cleaned).substr(negative ? 1 : 0);
    if (body.size() > 2 && body[0] == '0' &&
        (body[1] == 'x' || body[1] == 'X' || body[1] == 'b' || body[1] == 'B')) {
      const bool hex = body[1] == 'x' || body[1] == 'X';
      uint64_t v = 0;
      for (char c : body.substr(2)) {
        const int d = hex ? HexDigit(c) : (c == '0' || c == '1' ? c - '0' : -1);
        if (d < 0) return Error("invalid integer");
        if (v > (UINT64_MAX >> (hex ? 4 : 1))) return Error("integer too large");
        v = v * (hex ? 16 : 2) + static_cast<uint64_t>(d);
      }
      cleaned = (negative ? "-" : "") + std::to_string(v);
    } else {
      for (size_t i = 0; i < cleaned.size(); ++i) {
        const char c = cleaned[i];
        if (c == 'T' || c == 't' || c == ':' || (c == '-' && i > 0 &&
                                                  cleaned[i - 1] != 'e' &&
                                                  cleaned[i - 1] != 'E' &&
                                                  cleaned[i - 1] != 'd' &&
                                                  cleaned[i - 1] != 'D')) {
          return Error("a timestamp is not a DynamoDB value");
        }
        if (c == 'd' || c == 'D') cleaned[i] = 'E';
      }
      // "103." and "6.d2": a point with no digits after it.
      const size_t point = cleaned.find('.');
      if (point != std::string::npos &&
          (point + 1 == cleaned.size() || cleaned[point + 1] == 'E' ||
           cleaned[point + 1] == 'e')) {
        cleaned.erase(point, 1);
      }
    }
    Result<Number> n = Number::Parse(cleaned);
    if (!n.ok()) return Error(n.status().message());
    return AttributeValue::N(std::move(n).value());
  }

  // A scalar value, or a container opened on `stack`. Returns the scalar;
  // nullopt when a container was opened.
  Result<std::optional<AttributeValue>> ReadValueStart(SetKind set,
                                                       std::vector<Container>* stack) {
    const char c = Peek();
    if (c == '{' && Peek(1) == '{') {
      pos_ += 2;
      // Whitespace only: "//" inside a lob is base64, not a comment.
      while (!AtEnd() && (Peek() == ' ' || Peek() == '\t' || Peek() == '\n' ||
                          Peek() == '\r' || Peek() == '\v' || Peek() == '\f')) {
        ++pos_;
      }
      if (Peek() == '"' || Peek() == '\'') return Error("a clob is not a DynamoDB value");
      const size_t end = text_.find("}}", pos_);
      if (end == std::string_view::npos) return Error("unterminated blob");
      std::string base64;
      for (char b : text_.substr(pos_, end - pos_)) {
        if (b != ' ' && b != '\t' && b != '\n' && b != '\r' && b != '\v' && b != '\f') {
          base64.push_back(b);
        }
      }
      pos_ = end + 2;
      Result<std::string> bytes = Base64Decode(base64);
      if (!bytes.ok()) return Error("invalid base64 in a blob");
      return std::optional<AttributeValue>(AttributeValue::B(std::move(bytes).value()));
    }
    if (c == '{' || c == '[') {
      if (static_cast<int>(stack->size()) >= kMaxIonDepth) {
        return Error("nesting deeper than " + std::to_string(kMaxIonDepth) + " levels");
      }
      ++pos_;
      Container opened;
      opened.close = c == '{' ? '}' : ']';
      opened.set = c == '[' ? set : SetKind::kNone;
      stack->push_back(std::move(opened));
      return std::optional<AttributeValue>();
    }
    if (c == '(') return Error("an s-expression is not a DynamoDB value");
    if (c == '"') {
      ++pos_;
      std::string s;
      DR_RETURN_IF_ERROR(ReadQuoted("\"", false, &s));
      return std::optional<AttributeValue>(AttributeValue::S(std::move(s)));
    }
    if (LookingAt("'''")) {
      std::string s;
      DR_RETURN_IF_ERROR(ReadLongString(&s));
      return std::optional<AttributeValue>(AttributeValue::S(std::move(s)));
    }
    if (c == '\'') return Error("a symbol is not a DynamoDB value");
    if ((c >= '0' && c <= '9') || c == '-' || c == '+') {
      DR_ASSIGN_OR_RETURN(AttributeValue n, ReadNumber());
      return std::optional<AttributeValue>(std::move(n));
    }
    if (IsIdentifierStart(c)) {
      const std::string_view word = Identifier();
      if (word == "true" || word == "false") {
        return std::optional<AttributeValue>(AttributeValue::Bool(word == "true"));
      }
      if (word == "null") {
        if (Peek() == '.') {  // a typed null: null.string, null.list, ...
          ++pos_;
          Identifier();
        }
        return std::optional<AttributeValue>(AttributeValue::Null());
      }
      if (word == "nan") return Error("nan is not a DynamoDB number");
      return Error("a symbol is not a DynamoDB value");
    }
    return Error("unexpected character");
  }

  // A closed container as a value: a struct is a map; a list is a list,
  // or the set its annotation names (every element of the set's type).
  Result<AttributeValue> Close(Container c) {
    if (c.close == '}') return AttributeValue::M(std::move(c.members));
    switch (c.set) {
      case SetKind::kNone:
        return AttributeValue::L(std::move(c.elements));
      case SetKind::kSS:
      case SetKind::kBS: {
        const AttrType want = c.set == SetKind::kSS ? AttrType::kS : AttrType::kB;
        std::vector<std::string> members;
        for (AttributeValue& v : c.elements) {
          if (v.type() != want) return Error("a set element of another type");
          members.push_back(want == AttrType::kS ? v.s() : v.b());
        }
        return c.set == SetKind::kSS ? AttributeValue::SS(std::move(members))
                                     : AttributeValue::BS(std::move(members));
      }
      case SetKind::kNS: {
        std::vector<Number> members;
        for (AttributeValue& v : c.elements) {
          if (v.type() != AttrType::kN) return Error("a set element of another type");
          members.push_back(v.n());
        }
        return AttributeValue::NS(std::move(members));
      }
    }
    return Error("unreachable");
  }

  // One whole value from here, containers read with an explicit stack.
  Result<AttributeValue> ReadValue() {
    std::vector<Container> stack;
    while (true) {
      DR_RETURN_IF_ERROR(SkipSpace());
      std::optional<AttributeValue> value;
      if (!stack.empty() && Peek() == stack.back().close) {
        ++pos_;
        Container done = std::move(stack.back());
        stack.pop_back();
        DR_ASSIGN_OR_RETURN(value, Close(std::move(done)));
      } else {
        if (!stack.empty() && stack.back().close == '}') {
          DR_RETURN_IF_ERROR(ReadFieldName(&stack.back().field));
          DR_RETURN_IF_ERROR(SkipSpace());
          if (Peek() != ':') return Error("expected ':' after a field name");
          ++pos_;
          DR_RETURN_IF_ERROR(SkipSpace());
        }
        SetKind set = SetKind::kNone;
        DR_RETURN_IF_ERROR(ReadAnnotations(&set));
        DR_ASSIGN_OR_RETURN(value, ReadValueStart(set, &stack));
        if (!value) continue;  // a container was opened
        if (set != SetKind::kNone) return Error("a set annotation on a value that is no list");
      }
      if (stack.empty()) return std::move(*value);
      Container& parent = stack.back();
      if (parent.close == '}') {
        if (!parent.members.emplace(std::move(parent.field), std::move(*value)).second) {
          return Error("a field name repeated in a struct");
        }
      } else {
        parent.elements.push_back(std::move(*value));
      }
      DR_RETURN_IF_ERROR(SkipSpace());
      if (Peek() == ',') {
        ++pos_;
      } else if (Peek() != parent.close) {
        return Error(std::string("expected ',' or '") + parent.close + "'");
      }
    }
  }

  std::string_view text_;
  std::deque<AttributeValue> pending_;  // records of a top-level list, in order
  size_t pos_ = 0;
  size_t counted_ = 0;  // Error's line count covers text_[0, counted_)
  int64_t line_ = 1;
};

}  // namespace

Status AppendIonItemLine(std::string_view encoded_item, std::string* out) {
  const size_t start = out->size();
  out->append("$ion_1_0 {Item:{");
  IonWriter writer(out);
  Status s = VisitEncodedItem(encoded_item, &writer);
  if (!s.ok()) {
    out->resize(start);
    return s;
  }
  out->append("}}\n");
  return Status::OK();
}

struct IonRecords::Rep {
  explicit Rep(std::string_view text) : reader(text) {}
  IonRecordReader reader;
};

IonRecords::IonRecords(std::string_view text) : rep_(std::make_unique<Rep>(text)) {}
IonRecords::~IonRecords() = default;
bool IonRecords::Next(Result<Item>* record) { return rep_->reader.Next(record); }

Status VisitIonRecords(std::string_view text, const ImportRecordVisitor& visit) {
  IonRecordReader reader(text);
  Result<Item> record = Item();
  while (reader.Next(&record)) DR_RETURN_IF_ERROR(visit(std::move(record)));
  return Status::OK();
}

}  // namespace dynarock::api
