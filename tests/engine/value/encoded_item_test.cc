#include "engine/value/encoded_item.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "engine/types.h"
#include "engine/value/item_codec.h"
#include "engine/value/item_size.h"
#include "engine/value/number.h"
#include "tests/testutil/random_item.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock {
namespace {

using AV = AttributeValue;

std::string Encode(const Item& item) {
  std::string out;
  EncodeItem(item, &out);
  return out;
}

Number Num(std::string_view text) {
  Result<Number> n = Number::Parse(text);
  EXPECT_TRUE(n.ok()) << text;
  return n.ok() ? *n : Number();
}

// The property the fast Query path rests on: the size from the encoding is
// ItemSize of the decoded item, for items of every type and shape.
TEST(EncodedItemTest, SizeEqualsItemSizeOfRandomItems) {
  std::mt19937 rng(42);
  for (int i = 0; i < 5000; ++i) {
    const Item item = RandomItem(rng);
    ASSERT_OK_AND_ASSIGN(int64_t size, EncodedItemSize(Encode(item)));
    ASSERT_EQ(size, ItemSize(item)) << i;
  }
}

TEST(EncodedItemTest, SizeOfEdgeCases) {
  const Item item{{
      {"empty", AV::S("")},
      {"emptyB", AV::B("")},
      {"zero", AV::N(Number())},
      {"neg", AV::N(Num("-12345"))},
      {"big", AV::N(Num("99999999999999999999999999999999999999e88"))},
      {"tiny", AV::N(Num("-1e-130"))},
      {"odd", AV::N(Num("123.45"))},
      {"ns", AV::NS({Num("1"), Num("-0.5"), Num("100")})},
      {"ss", AV::SS({"", "x\xc3\xa9"})},
      {"bs", AV::BS({std::string("\0\1", 2)})},
      {"l", AV::L({AV::Null(), AV::Bool(true), AV::L({}), AV::M({})})},
      {"m", AV::M({{"a", AV::M({{"b", AV::S("c")}})}})},
  }};
  ASSERT_OK_AND_ASSIGN(int64_t size, EncodedItemSize(Encode(item)));
  EXPECT_EQ(size, ItemSize(item));
  ASSERT_OK_AND_ASSIGN(int64_t empty, EncodedItemSize(Encode(Item())));
  EXPECT_EQ(empty, 0);
}

// Rebuilds the item from the visit: every value arrives, in order.
class Rebuilder : public EncodedItemVisitor {
 public:
  void Name(std::string_view name) override { names_.emplace_back(name); }
  void Bytes(AttrType type, std::string_view bytes) override {
    Add(type == AttrType::kS ? AV::S(std::string(bytes)) : AV::B(std::string(bytes)));
  }
  void Num(const EncodedNumber& n) override {
    std::string text;
    AppendNumberText(n, &text);
    Result<Number> parsed = Number::Parse(text);
    EXPECT_TRUE(parsed.ok()) << text;
    Add(AV::N(parsed.ok() ? *parsed : Number()));
  }
  void Bool(bool b) override { Add(AV::Bool(b)); }
  void Null() override { Add(AV::Null()); }
  void Begin(AttrType type, size_t) override {
    stack_.push_back({type, {}, names_.size()});
  }
  void End(AttrType type) override {
    Frame f = std::move(stack_.back());
    stack_.pop_back();
    EXPECT_EQ(f.type, type);
    AV v;
    switch (type) {
      case AttrType::kL:
        v = AV::L(std::move(f.values));
        break;
      case AttrType::kM: {
        AV::Map m;
        for (size_t i = 0; i < f.values.size(); ++i) {
          m.emplace(names_[f.first_name + i], std::move(f.values[i]));
        }
        names_.resize(f.first_name);
        v = AV::M(std::move(m));
        break;
      }
      case AttrType::kNS: {
        std::vector<Number> ns;
        for (const AV& x : f.values) ns.push_back(x.n());
        v = AV::NS(std::move(ns));
        break;
      }
      default: {
        std::vector<std::string> members;
        for (const AV& x : f.values) members.push_back(x.type() == AttrType::kS ? x.s() : x.b());
        v = type == AttrType::kSS ? AV::SS(std::move(members)) : AV::BS(std::move(members));
      }
    }
    Add(std::move(v));
  }
  Item item() {
    Item out;
    for (size_t i = 0; i < top_.size(); ++i) out.emplace(names_[i], top_[i]);
    return out;
  }

 private:
  struct Frame {
    AttrType type;
    std::vector<AV> values;
    size_t first_name;
  };
  void Add(AV v) {
    if (stack_.empty()) {
      top_.push_back(std::move(v));
    } else {
      stack_.back().values.push_back(std::move(v));
    }
  }
  std::vector<std::string> names_;
  std::vector<AV> top_;
  std::vector<Frame> stack_;
};

// Corrupt buffers: sizing and visiting fail with kCorruption exactly where
// DecodeItem does, and give the same size and item where it decodes (all
// three are item_reader.h's one reader; this holds them to it).
TEST(EncodedItemTest, AcceptsExactlyWhatDecodeItemAccepts) {
  EXPECT_EQ(EncodedItemSize("").status().code(), ErrorCode::kCorruption);
  EXPECT_EQ(EncodedItemSize("\x02").status().code(), ErrorCode::kCorruption);
  std::mt19937 rng(9);
  for (int i = 0; i < 300; ++i) {
    const std::string valid = Encode(RandomItem(rng, 4));
    for (size_t pos = 0; pos < valid.size(); ++pos) {
      for (int delta : {1, 0x7f, 0x80, 0xff}) {
        std::string mutated = valid;
        mutated[pos] = static_cast<char>(mutated[pos] + delta);
        Result<Item> decoded = DecodeItem(mutated);
        Result<int64_t> size = EncodedItemSize(mutated);
        Rebuilder visited;
        const Status visit = VisitEncodedItem(mutated, &visited);
        ASSERT_EQ(size.ok(), decoded.ok()) << i << " " << pos;
        ASSERT_EQ(visit.ok(), decoded.ok()) << i << " " << pos;
        if (decoded.ok()) {
          ASSERT_EQ(*size, ItemSize(*decoded));
          ASSERT_EQ(visited.item(), *decoded);
        } else {
          ASSERT_EQ(size.status().code(), ErrorCode::kCorruption);
          ASSERT_EQ(visit.code(), ErrorCode::kCorruption);
        }
      }
    }
    // Truncated and extended.
    for (size_t len = 0; len < valid.size(); ++len) {
      ASSERT_EQ(EncodedItemSize(valid.substr(0, len)).status().code(),
                ErrorCode::kCorruption);
    }
    EXPECT_EQ(EncodedItemSize(valid + "x").status().code(), ErrorCode::kCorruption);
  }
}

TEST(EncodedItemTest, VisitSeesTheWholeItem) {
  std::mt19937 rng(5);
  for (int i = 0; i < 2000; ++i) {
    const Item item = RandomItem(rng);
    Rebuilder r;
    ASSERT_OK(VisitEncodedItem(Encode(item), &r));
    ASSERT_EQ(r.item(), item) << i;
  }
  Rebuilder r;
  EXPECT_EQ(VisitEncodedItem("\x01\x01", &r).code(), ErrorCode::kCorruption);
}

TEST(EncodedItemTest, NumberTextIsNumberToString) {
  std::mt19937 rng(3);
  for (const char* text : {"0", "1", "-1", "0.001", "-123.456", "1e125",
                           "1.5e-129", "12345678901234567890123456789012345678",
                           "100", "-0.5"}) {
    const Item item{{{"n", AV::N(Num(text))}}};
    Rebuilder r;
    ASSERT_OK(VisitEncodedItem(Encode(item), &r));
    EXPECT_EQ(r.item(), item) << text;
  }
  for (int i = 0; i < 2000; ++i) {
    const AV v = RandomValue(rng, 0);
    if (v.type() != AttrType::kN) continue;
    std::string encoded;
    EncodeItem(Item{{{"n", v}}}, &encoded);
    struct Text : EncodedItemVisitor {
      std::string text;
      void Name(std::string_view) override {}
      void Bytes(AttrType, std::string_view) override {}
      void Num(const EncodedNumber& n) override { AppendNumberText(n, &text); }
      void Bool(bool) override {}
      void Null() override {}
      void Begin(AttrType, size_t) override {}
      void End(AttrType) override {}
    } t;
    ASSERT_OK(VisitEncodedItem(encoded, &t));
    ASSERT_EQ(t.text, v.n().ToString());
  }
}

}  // namespace
}  // namespace dynarock
