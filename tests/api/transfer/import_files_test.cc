// ImportTable's input files (api/transfer/import_files.cc): DynamoDB JSON
// lines, CSV (header row or HeaderList, Delimiter, quotes, key columns
// typed by the attribute definitions), GZIP and ZSTD, and the records that
// are not items reaching the visitor as errors.

#include "api/transfer/import_files.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <filesystem>
#include <fstream>

#include "engine/util/base64.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock::api {
namespace {

struct Records {
  std::vector<Item> items;
  std::vector<std::string> errors;
};

Records Visit(std::string_view text, const ImportTableDescription& desc) {
  Records out;
  Status s = VisitImportRecords(text, desc, [&](Result<Item> r) {
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

ImportTableDescription Csv() {
  ImportTableDescription d;
  d.input_format = InputFormat::kCsv;
  d.table.attribute_definitions = {{"pk", AttrType::kS}, {"n", AttrType::kN},
                                   {"b", AttrType::kB}};
  return d;
}

TEST(ImportFilesTest, DynamoDbJsonLines) {
  Records r = Visit(
      "{\"Item\":{\"pk\":{\"S\":\"a\"},\"n\":{\"N\":\"1.50\"}}}\n"
      "\n"
      "not json\n"
      "{\"Other\":1}\n"
      "{\"Item\":{\"pk\":{\"Q\":\"a\"}}}\r\n"
      "{\"Item\":{\"pk\":{\"S\":\"b\"}}}",
      ImportTableDescription());
  ASSERT_EQ(r.items.size(), 2u);
  EXPECT_EQ(r.items[0].at("n"), AttributeValue::N(Number::Parse("1.5").value()));
  EXPECT_EQ(r.items[1].at("pk"), AttributeValue::S("b"));
  EXPECT_EQ(r.errors.size(), 3u);
}

TEST(ImportFilesTest, IonRecords) {
  ImportTableDescription ion;
  ion.input_format = InputFormat::kIon;
  Records r = Visit("$ion_1_0 {Item:{pk:\"a\",n:6d2}}\n$ion_1_0 {Item:{pk:symbol}}\n"
                    "$ion_1_0 {Item:{pk:\"b\",s:$dynamodb_SS::[\"x\"]}}\n",
                    ion);
  ASSERT_EQ(r.items.size(), 2u);
  EXPECT_EQ(r.items[0].at("n"), AttributeValue::N(Number::Parse("600").value()));
  EXPECT_EQ(r.items[1].at("s"), AttributeValue::SS({"x"}));
  EXPECT_EQ(r.errors.size(), 1u);
}

TEST(ImportFilesTest, CsvTypesKeyColumnsAndKeepsTheRestStrings) {
  Records r = Visit(
      "pk,n,b,other\n"
      "a,10,AAEC,\"x, \"\"y\"\"\"\n"
      "b,,,\n"
      "c,nan,,z\n"
      "d,1,,z,extra\n"
      "\"e\",2,,\"two\nlines\"\n",
      Csv());
  ASSERT_EQ(r.items.size(), 3u);
  EXPECT_EQ(r.items[0].at("n"), AttributeValue::N(Number::Parse("10").value()));
  EXPECT_EQ(r.items[0].at("b"), AttributeValue::B(std::string("\x00\x01\x02", 3)));
  EXPECT_EQ(r.items[0].at("other"), AttributeValue::S("x, \"y\""));
  EXPECT_EQ(r.items[1].size(), 1u);  // empty columns are left out
  EXPECT_EQ(r.items[2].at("other"), AttributeValue::S("two\nlines"));
  EXPECT_EQ(r.errors.size(), 2u);  // "nan" is no number; a field too many
}

TEST(ImportFilesTest, CsvHeaderListAndDelimiter) {
  ImportTableDescription d = Csv();
  d.csv.delimiter = ";";
  d.csv.header_list = std::vector<std::string>{"pk", "n"};
  Records r = Visit("a;1\nb;2\n", d);
  ASSERT_EQ(r.items.size(), 2u);
  EXPECT_EQ(r.items[1].at("pk"), AttributeValue::S("b"));
}

TEST(ImportFilesTest, Compression) {
  const std::string dir = testing::TempDir() + "/import_files_test_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  const std::string text = "{\"Item\":{\"pk\":{\"S\":\"a\"}}}\n";
  {
    gzFile f = gzopen((dir + "/a.gz").c_str(), "wb");
    gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
    gzclose(f);
    std::string z(ZSTD_compressBound(text.size()), '\0');
    z.resize(ZSTD_compress(z.data(), z.size(), text.data(), text.size(), 3));
    std::ofstream(dir + "/a.zst", std::ios::binary) << z;
    std::ofstream(dir + "/a.json", std::ios::binary) << text;
  }
  EXPECT_EQ(ReadInputFile(dir + "/a.gz", InputCompression::kGzip).value(), text);
  EXPECT_EQ(ReadInputFile(dir + "/a.zst", InputCompression::kZstd).value(), text);
  EXPECT_EQ(ReadInputFile(dir + "/a.json", InputCompression::kNone).value(), text);
  EXPECT_THAT(ReadInputFile(dir + "/a.json", InputCompression::kGzip).status(),
              StatusIs(ErrorCode::kValidation, testing::HasSubstr("a.json")));
  EXPECT_THAT(ReadInputFile(dir + "/a.json", InputCompression::kZstd).status(),
              StatusIs(ErrorCode::kValidation, testing::_));
  EXPECT_THAT(ReadInputFile(dir + "/nothing", InputCompression::kNone).status(),
              StatusIs(ErrorCode::kIOError, testing::_));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dynarock::api
