// S3Directory (api/transfer/s3_directory.cc): buckets are existing
// directories under the root, keys paths below them that cannot leave the
// bucket; an export's files land under <prefix>/AWSDynamoDB/<ExportId>/.

#include "api/transfer/s3_directory.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "tests/testutil/status_matchers.h"

namespace dynarock::api {
namespace {

class S3DirectoryTest : public ::testing::Test {
 protected:
  S3DirectoryTest() {
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_ + "/bkt");
  }
  ~S3DirectoryTest() override { std::filesystem::remove_all(root_); }
  const std::string root_ =
      testing::TempDir() + "/s3_directory_test_" + std::to_string(getpid());
  S3Directory s3_{root_};
};

TEST_F(S3DirectoryTest, ObjectPathsStayInTheirBucket) {
  ASSERT_OK_AND_ASSIGN(std::string path, s3_.ObjectPath("bkt", "a/b/c.json"));
  EXPECT_EQ(path, root_ + "/bkt/a/b/c.json");
  EXPECT_THAT(s3_.ObjectPath("nobkt", "a").status(),
              StatusIs(ErrorCode::kResourceNotFound, "The specified bucket does not exist"));
  EXPECT_THAT(s3_.ObjectPath("..", "a").status(),
              StatusIs(ErrorCode::kResourceNotFound, testing::_));
  EXPECT_THAT(s3_.ObjectPath("bkt/..", "a").status(),
              StatusIs(ErrorCode::kResourceNotFound, testing::_));
  for (const char* key : {"../x", "a/../../x", "a//b", "/abs", "./x"}) {
    EXPECT_THAT(s3_.ObjectPath("bkt", key).status(),
                StatusIs(ErrorCode::kValidation, testing::HasSubstr(key)))
        << key;
  }
}

TEST_F(S3DirectoryTest, ExportGoesUnderThePrefix) {
  ExportDescription d;
  d.export_arn = "arn:aws:dynamodb:r:1:table/t/export/00001700000000000-0123abcd";
  d.s3_bucket = "bkt";
  d.s3_prefix = "pre/fix/";
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<ExportWriter> w, s3_.NewExport(d));
  EXPECT_TRUE(std::filesystem::exists(root_ +
                                      "/bkt/pre/fix/AWSDynamoDB/00001700000000000-0123abcd/_started"));
  d.s3_bucket = "other";
  EXPECT_THAT(s3_.NewExport(d).status(), StatusIs(ErrorCode::kResourceNotFound, testing::_));
}

}  // namespace
}  // namespace dynarock::api
