#include "engine/schema/arns.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/testutil/status_matchers.h"

namespace dynarock {
namespace {

using ::testing::HasSubstr;

TEST(ArnsTest, ParsesTableAndSubResourceArns) {
  std::optional<DynamoDbArn> t = ParseArn("arn:aws:dynamodb:us-east-1:000000000000:table/Music");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->partition, "aws");
  EXPECT_EQ(t->region, "us-east-1");
  EXPECT_EQ(t->account, "000000000000");
  EXPECT_EQ(t->table, "Music");
  EXPECT_EQ(t->sub_type, "");

  std::optional<DynamoDbArn> s = ParseArn(
      "arn:aws:dynamodb:us-east-1:000000000000:table/Music/stream/2024-02-12T18:57:26.492");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->sub_type, "stream");
  EXPECT_EQ(s->sub_name, "2024-02-12T18:57:26.492");
  EXPECT_EQ(ParseArn("arn:aws:dynamodb:r:a:table/Music/index/byYear")->sub_type, "index");
}

TEST(ArnsTest, RefusesWhatIsNoDynamoDbTableArn) {
  EXPECT_FALSE(ParseArn("Music").has_value());
  EXPECT_FALSE(ParseArn("arn:aws:s3:::bucket").has_value());
  EXPECT_FALSE(ParseArn("arn:aws:dynamodb:r:a:backup/x").has_value());
  EXPECT_FALSE(ParseArn("arn:aws:dynamodb:r:a:table/ab").has_value());      // too short
  EXPECT_FALSE(ParseArn("arn:aws:dynamodb:r:a:table/a*b").has_value());     // pattern
  EXPECT_FALSE(ParseArn("arn:aws:dynamodb:r:a:table/Music/").has_value());  // no sub name
  EXPECT_FALSE(ParseArn("arn:aws:dynamodb:r:a:table/Music/index").has_value());
  // The ARNs this module builds parse back.
  Scope scope;
  scope.region = "eu-west-1";
  std::optional<DynamoDbArn> back = ParseArn(IndexArn(TableArn(scope, "T_1.x"), "gsi"));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->table, "T_1.x");
  EXPECT_EQ(back->sub_name, "gsi");
}

TEST(ArnsTest, TableNameOfArnChecksAccountAndRegion) {
  Scope scope;
  scope.region = "us-east-1";
  Result<std::string> name =
      TableNameOfArn(scope, "arn:aws:dynamodb:us-east-1:000000000000:table/Music", "GetItem");
  ASSERT_OK(name);
  EXPECT_EQ(*name, "Music");
  EXPECT_THAT(TableNameOfArn(scope, "arn:aws:dynamodb:us-east-1:111122223333:table/Music",
                             "GetItem"),
              StatusIs(ErrorCode::kAccessDenied,
                       HasSubstr("is not authorized to perform: dynamodb:GetItem on resource: "
                                 "arn:aws:dynamodb:us-east-1:111122223333:table/Music because "
                                 "no resource-based policy allows the dynamodb:GetItem action")));
  EXPECT_THAT(TableNameOfArn(scope, "arn:aws:dynamodb:us-west-2:000000000000:table/Music",
                             "GetItem"),
              StatusIs(ErrorCode::kValidation, HasSubstr("Invalid TableArn")));
  EXPECT_THAT(TableNameOfArn(scope,
                             "arn:aws:dynamodb:us-east-1:000000000000:table/Music/index/g",
                             "Query"),
              StatusIs(ErrorCode::kValidation, HasSubstr("Invalid TableArn")));
  EXPECT_TRUE(LooksLikeArn("arn:x"));
  EXPECT_FALSE(LooksLikeArn("Music"));
}

}  // namespace
}  // namespace dynarock
