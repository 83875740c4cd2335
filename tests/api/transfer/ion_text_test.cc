// Amazon Ion text (api/transfer/ion_text.cc): the export line of every
// DynamoDB type, random items through the writer and back through the
// reader, the Ion the reader takes (DynamoDB's own example, comments,
// several lines per value, ints, decimals, floats, long strings, escapes,
// quoted names, typed nulls, annotations), and the records it refuses,
// resuming at the next line, with no recursion on deep input.

#include "api/transfer/ion_text.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "engine/value/item_codec.h"
#include "tests/testutil/random_item.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock::api {
namespace {

AttributeValue Num(const char* text) { return AttributeValue::N(Number::Parse(text).value()); }

struct Records {
  std::vector<Item> items;
  std::vector<std::string> errors;
};

// The export line of `item`, written from its stored encoding.
std::string LineOf(const Item& item) {
  std::string encoded;
  EncodeItem(item, &encoded);
  std::string line;
  EXPECT_OK(AppendIonItemLine(encoded, &line));
  return line;
}

Records Read(std::string_view text) {
  Records out;
  Status s = VisitIonRecords(text, [&](Result<Item> r) {
    if (r.ok()) {
      out.items.push_back(*r);
    } else {
      out.errors.push_back(r.status().message());
    }
    return Status::OK();
  });
  EXPECT_OK(s);
  return out;
}

TEST(IonTextTest, WritesEveryTypeAsDynamoDbsExportDoes) {
  Item item;
  item["Id"] = Num("103");
  item["PageCount"] = Num("600");
  item["Price"] = Num("2000");
  item["Ratio"] = Num("1.5");
  item["Tiny"] = Num("-0.025");
  item["Tinier"] = Num("1E-20");
  item["Zero"] = Num("0");
  item["Authors"] = AttributeValue::SS({"Author1", "Author2"});
  item["Sizes"] = AttributeValue::NS({Number::Parse("6").value(), Number::Parse("10.5").value()});
  item["Blobs"] = AttributeValue::BS({"hi", std::string("\0\xff", 2), "\xff\xff"});
  item["Data"] = AttributeValue::B("hello");
  item["InPublication"] = AttributeValue::Bool(false);
  item["Nothing"] = AttributeValue::Null();
  item["Title"] = AttributeValue::S("say \"hi\"\\\n\x01 caf\xc3\xa9");
  item["Nested"] = AttributeValue::L(
      {AttributeValue::S("x"), AttributeValue::M({{"inner", AttributeValue::Bool(true)}}),
       AttributeValue::L({})});
  item["odd name"] = AttributeValue::M({{"null", Num("1")}, {"$x", Num("2")}, {"a'b", Num("3")}});
  const std::string line = LineOf(item);
  EXPECT_EQ(line,
            "$ion_1_0 {Item:{Authors:$dynamodb_SS::[\"Author1\",\"Author2\"],"
            "Blobs:$dynamodb_BS::[{{aGk=}},{{AP8=}},{{//8=}}],Data:{{aGVsbG8=}},Id:103.,"
            "InPublication:false,Nested:[\"x\",{inner:true},[]],Nothing:null,PageCount:6d2,"
            "Price:2d3,Ratio:1.5,Sizes:$dynamodb_NS::[6.,10.5],Tinier:1d-20,Tiny:-0.025,"
            "Title:\"say \\\"hi\\\"\\\\\\n\\x01 caf\xc3\xa9\",Zero:0.,"
            "'odd name':{'$x':2.,'a\\'b':3.,'null':1.}}}\n");
  Records back = Read(line);
  ASSERT_EQ(back.errors, std::vector<std::string>{});
  ASSERT_EQ(back.items.size(), 1u);
  EXPECT_EQ(back.items[0], item);
}

TEST(IonTextTest, RandomItemsRoundTrip) {
  std::mt19937 rng(20261127);
  std::vector<Item> items;
  std::string text;
  for (int i = 0; i < 500; ++i) {
    items.push_back(RandomItem(rng));
    text += LineOf(items.back());
  }
  Records back = Read(text);
  EXPECT_EQ(back.errors, std::vector<std::string>{});
  ASSERT_EQ(back.items.size(), items.size());
  for (size_t i = 0; i < items.size(); ++i) EXPECT_EQ(back.items[i], items[i]) << i;
}

TEST(IonTextTest, ACorruptEncodingAppendsNothing) {
  std::string line = "kept";
  EXPECT_EQ(AppendIonItemLine("\xff\xff\xff", &line).code(), ErrorCode::kCorruption);
  EXPECT_EQ(line, "kept");
}

TEST(IonTextTest, ReadsTheIonDynamoDbDocumentsAndMore) {
  // The developer guide's example, formatted over several lines.
  Records r = Read(R"ion($ion_1_0 {
    Item:{
        Authors:$dynamodb_SS::["Author1","Author2"],
        Dimensions:"8.5 x 11.0 x 1.5",
        ISBN:"333-3333333333",
        Id:103.,
        InPublication:false,
        PageCount:6d2,
        Price:2d3,
        ProductCategory:"Book",
        Title:"Book 103 Title"
    }
}
// Two records on one line, comments, ints, floats, long strings, escapes.
{Item:{pk:"a", hex:0x1F, bin:-0b101, big:1_000_000, f:1.5e0, d:6.d2}} /* next */ {Item:{pk:"b"}}
$ion_1_0
[ { Item: { pk: "list1" } },
  { Item: { pk: "list2" } } ]
{Item:{'quoted name':'''long '''  /* joined */ '''string''', "string name":"\u00e9\U0001F600\ud83d\ude00\x41",
       n:null.string, l:null.list, o:other::annotated::"kept", ns:$dynamodb_NS::[1, 2.50, 3d-1], e:[], m:{},}}
)ion");
  ASSERT_EQ(r.errors, std::vector<std::string>{});
  ASSERT_EQ(r.items.size(), 6u);
  EXPECT_EQ(r.items[0].at("Authors"), AttributeValue::SS({"Author1", "Author2"}));
  EXPECT_EQ(r.items[0].at("Id"), Num("103"));
  EXPECT_EQ(r.items[0].at("PageCount"), Num("600"));
  EXPECT_EQ(r.items[0].at("Price"), Num("2000"));
  EXPECT_EQ(r.items[0].at("InPublication"), AttributeValue::Bool(false));
  EXPECT_EQ(r.items[0].size(), 9u);
  EXPECT_EQ(r.items[1].at("hex"), Num("31"));
  EXPECT_EQ(r.items[1].at("bin"), Num("-5"));
  EXPECT_EQ(r.items[1].at("big"), Num("1000000"));
  EXPECT_EQ(r.items[1].at("f"), Num("1.5"));
  EXPECT_EQ(r.items[1].at("d"), Num("600"));
  EXPECT_EQ(r.items[2], (Item{{"pk", AttributeValue::S("b")}}));
  EXPECT_EQ(r.items[3], (Item{{"pk", AttributeValue::S("list1")}}));
  EXPECT_EQ(r.items[4], (Item{{"pk", AttributeValue::S("list2")}}));
  const Item& third = r.items[5];
  EXPECT_EQ(third.at("quoted name"), AttributeValue::S("long string"));
  EXPECT_EQ(third.at("string name"),
            AttributeValue::S("\xc3\xa9\xf0\x9f\x98\x80\xf0\x9f\x98\x80" "A"));
  EXPECT_EQ(third.at("n"), AttributeValue::Null());
  EXPECT_EQ(third.at("l"), AttributeValue::Null());
  EXPECT_EQ(third.at("o"), AttributeValue::S("kept"));
  EXPECT_EQ(third.at("ns"), AttributeValue::NS({Number::Parse("1").value(),
                                                Number::Parse("2.5").value(),
                                                Number::Parse("0.3").value()}));
  EXPECT_EQ(third.at("e"), AttributeValue::L({}));
  EXPECT_EQ(third.at("m"), AttributeValue::M({}));
}

TEST(IonTextTest, RecordsThatAreNotItemsAreErrorsAndReadingGoesOn) {
  const char* bad[] = {
      "{Item:{t:2007-02-23T12:14Z}}",
      "{Item:{t:2007-02-23}}",
      "{Item:{s:symbol}}",
      "{Item:{s:'symbol'}}",
      "{Item:{c:{{\"clob\"}}}}",
      "{Item:{x:(a b)}}",
      "{Item:{x:nan}}",
      "{Item:{x:+inf}}",
      "{Item:{x:-inf}}",
      "{Item:{x:$dynamodb_SS::[\"a\", 1]}}",
      "{Item:{x:$dynamodb_NS::\"1\"}}",
      "{Item:{x:{{not base64!}}}}",
      "{Item:{x:1, x:2}}",
      "{Item:{x:\"unterminated}}",
      "{Item:{x:\"\\q\"}}",
      "{Item:{x:\"\\ud800\"}}",
      "{Item:{x:1 y:2}}",
      "{Item:{x 1}}",
      "{Item:{x:1e400}}",
      "{Item:{x:123456789012345678901234567890123456789}}",
      "{Item:{x:0x1ffffffffffffffff}}",
      "{NoItem:{}}",
      "{Item:[1]}",
      "[1]",
      "\"top-level string\"",
      "{Item:{x:@}}",
  };
  std::string text;
  for (const char* line : bad) {
    text += line;
    text += "\n";
    text += "{Item:{ok:1}}\n";  // read whatever came before
  }
  Records r = Read(text);
  EXPECT_EQ(r.errors.size(), std::size(bad)) << testing::PrintToString(r.errors);
  EXPECT_EQ(r.items.size(), std::size(bad));
  for (const Item& item : r.items) EXPECT_EQ(item, (Item{{"ok", Num("1")}}));
  for (const std::string& e : r.errors) EXPECT_EQ(e.rfind("Invalid Ion at line ", 0), 0u) << e;

  Records unterminated = Read("{Item:{a:1}} /* never closed");
  EXPECT_EQ(unterminated.items.size(), 1u);
  EXPECT_EQ(unterminated.errors.size(), 1u);
}

TEST(IonTextTest, DeepAndWideInputIsBoundedWithoutRecursion) {
  // A million nested lists: refused at kMaxIonDepth, no stack growth.
  std::string deep = "{Item:{x:" + std::string(1'000'000, '[') + "}}\n{Item:{ok:1}}\n";
  Records r = Read(deep);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].find("nesting deeper than 35 levels"), std::string::npos) << r.errors[0];
  ASSERT_EQ(r.items.size(), 1u);

  // The deepest accepted: a list of records, the record, Item and 32
  // levels of lists.
  std::string max = "[{Item:{x:" + std::string(32, '[') + std::string(32, ']') + "}}]";
  Records ok = Read(max);
  EXPECT_EQ(ok.errors, std::vector<std::string>{});
  ASSERT_EQ(ok.items.size(), 1u);

  // 200,000 attributes in one record.
  std::string wide = "{Item:{";
  for (int i = 0; i < 200'000; ++i) wide += "a" + std::to_string(i) + ":" + std::to_string(i) + ",";
  wide += "}}";
  Records w = Read(wide);
  ASSERT_EQ(w.items.size(), 1u);
  EXPECT_EQ(w.items[0].size(), 200'000u);
}

}  // namespace
}  // namespace dynarock::api
