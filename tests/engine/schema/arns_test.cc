#include "engine/schema/arns.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "engine/requests/scope.h"
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
  const std::string own = TableArn(scope, "Music");
  EXPECT_EQ(own, "arn:aws:dynamodb:us-east-1:" +
                     std::string(kDefaultAccountId) + ":table/Music");
  Result<std::string> name = TableNameOfArn(scope, own, "GetItem");
  ASSERT_OK(name);
  EXPECT_EQ(*name, "Music");
  EXPECT_THAT(TableNameOfArn(scope, "arn:aws:dynamodb:us-east-1:111122223333:table/Music",
                             "GetItem"),
              StatusIs(ErrorCode::kAccessDenied,
                       HasSubstr("is not authorized to perform: dynamodb:GetItem on resource: "
                                 "arn:aws:dynamodb:us-east-1:111122223333:table/Music because "
                                 "no resource-based policy allows the dynamodb:GetItem action")));
  // No AWS account is 000000000000 (DynamoDB Local's): by default it is
  // another account's, as it is on DynamoDB.
  EXPECT_THAT(
      TableNameOfArn(scope,
                     "arn:aws:dynamodb:us-east-1:000000000000:table/Music",
                     "ListTagsOfResource"),
      StatusIs(
          ErrorCode::kAccessDenied,
          HasSubstr("User: arn:aws:iam::" + std::string(kDefaultAccountId) +
                    ":root is not authorized")));
  Scope west = scope;
  west.region = "us-west-2";
  EXPECT_THAT(TableNameOfArn(scope, TableArn(west, "Music"), "GetItem"),
              StatusIs(ErrorCode::kValidation, HasSubstr("Invalid TableArn")));
  EXPECT_THAT(TableNameOfArn(scope, IndexArn(own, "g"), "Query"),
              StatusIs(ErrorCode::kValidation, HasSubstr("Invalid TableArn")));
  // Another account id in the Scope (ClientOptions::account_id) is the
  // caller's own.
  Scope zeros = scope;
  zeros.account = "000000000000";
  Result<std::string> zeros_name = TableNameOfArn(
      zeros, "arn:aws:dynamodb:us-east-1:000000000000:table/Music", "GetItem");
  ASSERT_OK(zeros_name);
  EXPECT_EQ(*zeros_name, "Music");
  EXPECT_TRUE(IsAccountId("123456789012"));
  EXPECT_FALSE(IsAccountId("12345678901"));
  EXPECT_FALSE(IsAccountId("1234567890123"));
  EXPECT_FALSE(IsAccountId("12345678901a"));
  EXPECT_TRUE(LooksLikeArn("arn:x"));
  EXPECT_FALSE(LooksLikeArn("Music"));
}

}  // namespace
}  // namespace dynarock
