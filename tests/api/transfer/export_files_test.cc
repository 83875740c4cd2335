// The export layout (api/transfer/export_files.cc): gzipped DynamoDB JSON
// lines cut into files, manifest-files.json naming each with its count and
// MD5, manifest-summary.json last, checksums, an empty table's one empty
// file, and a rerun replacing what an interrupted run left.

#include "api/transfer/export_files.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "api/json_codec.h"
#include "engine/value/item_codec.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock::api {
namespace {

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string Gunzip(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  std::string out;
  char buf[4096];
  int n;
  while ((n = gzread(f, buf, sizeof(buf))) > 0) out.append(buf, static_cast<size_t>(n));
  gzclose(f);
  return out;
}

std::vector<Json> Lines(const std::string& text) {
  std::vector<Json> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(Json::parse(line));
  return out;
}

class ExportFilesTest : public ::testing::Test {
 protected:
  ExportFilesTest() { std::filesystem::remove_all(dir_); }
  ~ExportFilesTest() override { std::filesystem::remove_all(dir_); }
  ExportDescription Desc() const {
    ExportDescription d;
    d.export_arn = "arn:aws:dynamodb:r:1:table/t/export/01700000000000-0123abcd";
    d.table_arn = "arn:aws:dynamodb:r:1:table/t";
    d.s3_bucket = "bkt";
    d.start_micros = 1'604'474'914'028'000;
    d.export_micros = d.start_micros;
    d.end_micros = d.start_micros + 1000;
    d.export_status = ExportStatus::kCompleted;
    return d;
  }
  const std::string dir_ = testing::TempDir() + "/export_files_test_" + std::to_string(getpid());
};

TEST_F(ExportFilesTest, WritesDynamoDbsLayout) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<ExportWriter> w,
                       NewExportFiles(Desc(), dir_, "AWSDynamoDB/x/", /*items_per_file=*/2));
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/_started"));
  for (int i = 0; i < 5; ++i) {
    Item item;
    item["pk"] = AttributeValue::S("k" + std::to_string(i));
    item["n"] = AttributeValue::N(Number::Parse("1.50").value());
    std::string encoded;
    EncodeItem(item, &encoded);
    ASSERT_OK(w->Add(encoded));
  }
  ExportDescription done = Desc();
  done.item_count = 5;
  done.billed_size_bytes = 42;
  ASSERT_OK(w->Finish(done));

  const Json summary = Json::parse(ReadText(dir_ + "/manifest-summary.json"));
  EXPECT_EQ(summary["version"], "2020-06-30");
  EXPECT_EQ(summary["exportArn"], done.export_arn);
  EXPECT_EQ(summary["startTime"], "2020-11-04T07:28:34.028Z");
  EXPECT_EQ(summary["endTime"], "2020-11-04T07:28:34.029Z");
  EXPECT_EQ(summary["itemCount"], 5);
  EXPECT_EQ(summary["billedSizeBytes"], 42);
  EXPECT_EQ(summary["outputFormat"], "DYNAMODB_JSON");
  EXPECT_EQ(summary["s3Prefix"], nullptr);
  EXPECT_EQ(summary["manifestFilesS3Key"], "AWSDynamoDB/x/manifest-files.json");
  ASSERT_OK_AND_ASSIGN(FileMd5 md5, Md5OfFile(dir_ + "/manifest-summary.json"));
  EXPECT_EQ(ReadText(dir_ + "/manifest-summary.checksum"), md5.hex);

  const std::vector<Json> files = Lines(ReadText(dir_ + "/manifest-files.json"));
  ASSERT_EQ(files.size(), 3u);  // 2 + 2 + 1
  std::vector<std::string> items;
  for (const Json& f : files) {
    const std::string key = f["dataFileS3Key"];
    ASSERT_EQ(key.rfind("AWSDynamoDB/x/data/", 0), 0u) << key;
    EXPECT_EQ(key.size(), std::string("AWSDynamoDB/x/data/").size() + 26 + 8);
    const std::string path = dir_ + "/" + key.substr(std::string("AWSDynamoDB/x/").size());
    ASSERT_OK_AND_ASSIGN(FileMd5 file_md5, Md5OfFile(path));
    EXPECT_EQ(f["etag"], file_md5.hex);
    EXPECT_EQ(f["md5Checksum"], file_md5.base64);
    const std::vector<Json> lines = Lines(Gunzip(path));
    EXPECT_EQ(f["itemCount"], lines.size());
    for (const Json& line : lines) items.push_back(line.dump());
  }
  ASSERT_EQ(items.size(), 5u);
  EXPECT_EQ(items[0], R"({"Item":{"n":{"N":"1.5"},"pk":{"S":"k0"}}})");
}

TEST_F(ExportFilesTest, IonExportsWriteIonLinesInIonFiles) {
  ExportDescription desc = Desc();
  desc.export_format = ExportFormat::kIon;
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<ExportWriter> w,
                       NewExportFiles(desc, dir_, "AWSDynamoDB/x/", /*items_per_file=*/10));
  Item item;
  item["pk"] = AttributeValue::S("k0");
  item["n"] = AttributeValue::N(Number::Parse("600").value());
  std::string encoded;
  EncodeItem(item, &encoded);
  ASSERT_OK(w->Add(encoded));
  desc.item_count = 1;
  ASSERT_OK(w->Finish(desc));
  EXPECT_EQ(Json::parse(ReadText(dir_ + "/manifest-summary.json"))["outputFormat"], "ION");
  const std::vector<Json> files = Lines(ReadText(dir_ + "/manifest-files.json"));
  ASSERT_EQ(files.size(), 1u);
  const std::string key = files[0]["dataFileS3Key"];
  EXPECT_EQ(key.substr(key.size() - 7), ".ion.gz");
  EXPECT_EQ(Gunzip(dir_ + "/" + key.substr(std::string("AWSDynamoDB/x/").size())),
            "$ion_1_0 {Item:{n:6d2,pk:\"k0\"}}\n");
}

TEST_F(ExportFilesTest, AnEmptyTableHasOneEmptyFileAndAReRunStartsOver) {
  std::filesystem::create_directories(dir_ + "/data");
  std::ofstream(dir_ + "/data/leftover.json.gz") << "partial";
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<ExportWriter> w,
                       NewExportFiles(Desc(), dir_, "k/", 100));
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/data/leftover.json.gz"));
  ASSERT_OK(w->Finish(Desc()));
  const std::vector<Json> files = Lines(ReadText(dir_ + "/manifest-files.json"));
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0]["itemCount"], 0);
}

TEST(IsoTimeTest, MillisecondsUtc) {
  EXPECT_EQ(IsoTime(0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(IsoTime(1'604'474'914'028'999), "2020-11-04T07:28:34.028Z");
}

}  // namespace
}  // namespace dynarock::api
