// Table tags (engine/control/table_tags.cc), through the Engine: TagResource,
// UntagResource, ListTagsOfResource (paging), CreateTable's Tags, DynamoDB's
// limits and messages, tags kept over a restart and gone with the table.
#include "engine/control/table_tags.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/requests/scope.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

using ::testing::ElementsAre;

const std::string kArn =
    "arn:aws:dynamodb:ddblocal:" + std::string(kDefaultAccountId) +
    ":table/Tab";

Status TagIt(Engine* db, std::vector<Tag> tags, const std::string& arn = kArn) {
  TagResourceRequest req;
  req.resource_arn = arn;
  req.tags = std::move(tags);
  return db->TagResource(req);
}

std::vector<Tag> ListAll(Engine* db, const std::string& arn = kArn) {
  std::vector<Tag> all;
  ListTagsOfResourceRequest req;
  req.resource_arn = arn;
  for (int pages = 0; pages < 100; ++pages) {
    auto page = db->ListTagsOfResource(req);
    EXPECT_OK(page.status());
    if (!page.ok()) break;
    all.insert(all.end(), page->tags.begin(), page->tags.end());
    if (!page->next_token) break;
    req.next_token = page->next_token;
  }
  return all;
}

TEST(TableTagsTest, TagOverwriteUntagList) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  EXPECT_TRUE(ListAll(db.engine.get()).empty());
  ASSERT_OK(TagIt(db.engine.get(), {{"env", "dev"}, {"team", "x"}, {"empty", ""}}));
  ASSERT_OK(TagIt(db.engine.get(), {{"env", "prod"}}));
  EXPECT_THAT(ListAll(db.engine.get()),
              ElementsAre(Tag{"empty", ""}, Tag{"env", "prod"}, Tag{"team", "x"}));
  UntagResourceRequest untag;
  untag.resource_arn = kArn;
  untag.tag_keys = {"team", "not-there"};
  ASSERT_OK(db->UntagResource(untag));
  EXPECT_THAT(ListAll(db.engine.get()), ElementsAre(Tag{"empty", ""}, Tag{"env", "prod"}));
}

TEST(TableTagsTest, CreateTableTagsAndTheFiftyTagLimit) {
  TestEngine db;
  CreateTableRequest create = SimpleTable("Tab");
  for (int i = 0; i < 51; ++i) create.tags.push_back({"k" + std::to_string(i), "v"});
  const char* too_many =
      "One or more parameter values were invalid: The number of tags on a "
      "resource cannot exceed 50";
  EXPECT_THAT(db->CreateTable(create), StatusIs(ErrorCode::kValidation, too_many));
  DescribeTableRequest d;
  d.table_name = "Tab";
  EXPECT_EQ(db->DescribeTable(d).status().code(), ErrorCode::kResourceNotFound);
  create.tags.resize(49);
  ASSERT_OK(db->CreateTable(create).status());
  EXPECT_EQ(ListAll(db.engine.get()).size(), 49u);
  // Overwriting an existing key does not count; a 51st key does.
  ASSERT_OK(TagIt(db.engine.get(), {{"k0", "again"}, {"new", "1"}}));
  EXPECT_THAT(TagIt(db.engine.get(), {{"newer", "1"}}),
              StatusIs(ErrorCode::kValidation, too_many));
  EXPECT_EQ(ListAll(db.engine.get()).size(), 50u);
}

TEST(TableTagsTest, DynamoDbsRefusals) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  EXPECT_THAT(TagIt(db.engine.get(), {{"a", "b"}}, "Tab"),
              StatusIs(ErrorCode::kValidation,
                       "One or more parameter values were invalid: ARNs must start with "
                       "'arn:': Tab"));
  for (const char* bad : {"arn:aws:dynamodb:r:a:table/ab", "arn:a:b:c:d:e/f",
                          "arn:aws:dynamodb:r:a:stream/Tab",
                          "arn:aws:dynamodb:ddblocal:000000000000:table/Tab/index/g"}) {
    EXPECT_THAT(TagIt(db.engine.get(), {{"a", "b"}}, bad),
                StatusIs(ErrorCode::kValidation,
                         std::string("Invalid TableArn: Invalid ResourceArn provided as input ") + bad));
  }
  EXPECT_THAT(TagIt(db.engine.get(), {}),
              StatusIs(ErrorCode::kValidation, "Atleast one Tag needs to be provided as Input."));
  const std::string missing =
      "arn:aws:dynamodb:ddblocal:" + std::string(kDefaultAccountId) +
      ":table/Other";
  const std::string not_found = "Requested resource not found: ResourceArn: " + missing + " not found";
  EXPECT_THAT(TagIt(db.engine.get(), {{"a", "b"}}, missing),
              StatusIs(ErrorCode::kResourceNotFound, not_found));
  ListTagsOfResourceRequest list;
  list.resource_arn = missing;
  EXPECT_THAT(db->ListTagsOfResource(list), StatusIs(ErrorCode::kResourceNotFound, not_found));
  // Another region's ARN of the same name is not this table.
  const std::string elsewhere =
      "arn:aws:dynamodb:us-west-2:" + std::string(kDefaultAccountId) +
      ":table/Tab";
  EXPECT_EQ(TagIt(db.engine.get(), {{"a", "b"}}, elsewhere).code(), ErrorCode::kResourceNotFound);
  EXPECT_THAT(TagIt(db.engine.get(), {{"aws:cloudformation:stack-name", "s"}}),
              StatusIs(ErrorCode::kValidation,
                       "One or more parameter values were invalid: Tag keys starting "
                       "with the aws: prefix are reserved for AWS use"));
  // Only letters, digits, white space and _ . : / = + - @ (as the AWS
  // tagging guide's pattern; scylladb's test_tag_resource_incorrect saw
  // DynamoDB refuse these with a ValidationException).
  for (const Tag& bad : {Tag{"ok", "#!%%^$$&"}, Tag{"->>;-)])", "ok"}, Tag{"!!!\\|", "<><"},
                         Tag{"tab\tkey", "v"}}) {
    EXPECT_THAT(TagIt(db.engine.get(), {bad}),
                StatusIs(ErrorCode::kValidation,
                         "One or more parameter values were invalid: Tag keys and values "
                         "may only contain letters, digits, white space and _ . : / = + "
                         "- @"))
        << bad.key;
  }
  EXPECT_TRUE(ListAll(db.engine.get()).empty());
  ASSERT_OK(TagIt(db.engine.get(), {{"team/a b:c=d+e-f@g_h.i", "Ünïcode 7"}, {" ", ""}}));
  EXPECT_EQ(ListAll(db.engine.get()).size(), 2u);
}

TEST(TableTagsTest, ListPagesWithNextToken) {
  EngineOptions options = TestEngine::Options();
  options.list_tags_page_size = 2;
  TestEngine db(options);
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  ASSERT_OK(TagIt(db.engine.get(), {{"a", "1"}, {"b", "2"}, {"c", "3"}, {"d", "4"}, {"e", "5"}}));
  ListTagsOfResourceRequest req;
  req.resource_arn = kArn;
  ASSERT_OK_AND_ASSIGN(ListTagsOfResourceResult page, db->ListTagsOfResource(req));
  EXPECT_THAT(page.tags, ElementsAre(Tag{"a", "1"}, Tag{"b", "2"}));
  ASSERT_TRUE(page.next_token.has_value());
  EXPECT_EQ(ListAll(db.engine.get()).size(), 5u);
}

TEST(TableTagsTest, TagsSurviveRestartAndGoWithTheTable) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("dynarock_table_tags_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  SimulatedClock clock;
  EngineOptions options = TestEngine::Options();
  options.in_memory = false;
  options.path = dir.string();
  options.clock = &clock;
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    CreateTableRequest create = SimpleTable("Tab");
    create.tags = {{"created", "1"}};
    ASSERT_OK(db->CreateTable(create).status());
    ASSERT_OK(TagIt(db.get(), {{"env", "prod"}}));
    UpdateTableRequest up;  // a table change keeps the tags
    up.table_name = "Tab";
    up.deletion_protection_enabled = true;
    ASSERT_OK(db->UpdateTable(up).status());
  }
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    EXPECT_THAT(ListAll(db.get()), ElementsAre(Tag{"created", "1"}, Tag{"env", "prod"}));
    UpdateTableRequest up;
    up.table_name = "Tab";
    up.deletion_protection_enabled = false;
    ASSERT_OK(db->UpdateTable(up).status());
    DeleteTableRequest del;
    del.table_name = "Tab";
    ASSERT_OK(db->DeleteTable(del).status());
    ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
    EXPECT_TRUE(ListAll(db.get()).empty());
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dynarock
