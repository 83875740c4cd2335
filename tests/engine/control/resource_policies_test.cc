// Resource-based policies (engine/control/resource_policies.cc), through the
// Engine: Put/Get/Delete on a table and on its stream, revision ids and
// ExpectedRevisionId (NO_POLICY), DynamoDB's ARN checks and messages,
// CreateTable's ResourcePolicy, policies kept over a restart, gone with the
// table and not carried by a backup; the record encoding.
#include "engine/control/resource_policies.h"

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

using ::testing::HasSubstr;

const std::string kArn =
    "arn:aws:dynamodb:ddblocal:" + std::string(kDefaultAccountId) +
    ":table/Tab";
constexpr char kPolicyA[] = R"({"Version":"2012-10-17","Statement":[{"Resource":"*"}]})";
constexpr char kPolicyB[] = R"({"Version":"2012-10-17","Statement":[{"Resource":"x"}]})";

Result<PutResourcePolicyResult> Put(Engine* db, const std::string& policy,
                                    std::optional<std::string> expected = std::nullopt,
                                    const std::string& arn = kArn) {
  PutResourcePolicyRequest req;
  req.resource_arn = arn;
  req.policy = policy;
  req.expected_revision_id = std::move(expected);
  return db->PutResourcePolicy(req);
}

Result<GetResourcePolicyResult> Get(Engine* db, const std::string& arn = kArn) {
  GetResourcePolicyRequest req;
  req.resource_arn = arn;
  return db->GetResourcePolicy(req);
}

Result<DeleteResourcePolicyResult> Delete(Engine* db,
                                          std::optional<std::string> expected = std::nullopt,
                                          const std::string& arn = kArn) {
  DeleteResourcePolicyRequest req;
  req.resource_arn = arn;
  req.expected_revision_id = std::move(expected);
  return db->DeleteResourcePolicy(req);
}

TEST(ResourcePoliciesTest, PutGetDeleteAndRevisions) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  EXPECT_THAT(Get(db.engine.get()).status(),
              StatusIs(ErrorCode::kPolicyNotFound,
                       std::string("Resource-based policy not found for the provided "
                                   "ResourceArn: ") + kArn));
  db.clock.Advance(5'000'000);
  ASSERT_OK_AND_ASSIGN(auto first, Put(db.engine.get(), kPolicyA));
  // Milliseconds of the engine clock.
  EXPECT_EQ(first.revision_id, std::to_string(db.clock.NowMicros() / 1000));
  ASSERT_OK_AND_ASSIGN(auto got, Get(db.engine.get()));
  EXPECT_EQ(got.policy, kPolicyA);
  EXPECT_EQ(got.revision_id, first.revision_id);
  // The same document again changes nothing; another one is a later revision,
  // even at the same clock millisecond.
  ASSERT_OK_AND_ASSIGN(auto same, Put(db.engine.get(), kPolicyA));
  EXPECT_EQ(same.revision_id, first.revision_id);
  ASSERT_OK_AND_ASSIGN(auto second, Put(db.engine.get(), kPolicyB));
  EXPECT_GT(std::stoll(second.revision_id), std::stoll(first.revision_id));
  EXPECT_EQ(Get(db.engine.get())->policy, kPolicyB);
  ASSERT_OK_AND_ASSIGN(auto deleted, Delete(db.engine.get()));
  EXPECT_EQ(deleted.revision_id, second.revision_id);
  EXPECT_THAT(Get(db.engine.get()).status(), StatusIs(ErrorCode::kPolicyNotFound, HasSubstr(kArn)));
  EXPECT_THAT(Delete(db.engine.get()).status(),
              StatusIs(ErrorCode::kPolicyNotFound, HasSubstr(kArn)));
}

TEST(ResourcePoliciesTest, ExpectedRevisionId) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  // An expected revision when there is no policy.
  EXPECT_THAT(Put(db.engine.get(), kPolicyA, "123").status(),
              StatusIs(ErrorCode::kPolicyNotFound, HasSubstr(kArn)));
  ASSERT_OK_AND_ASSIGN(auto first, Put(db.engine.get(), kPolicyA, kNoPolicyRevision));
  EXPECT_THAT(Put(db.engine.get(), kPolicyB, kNoPolicyRevision).status(),
              StatusIs(ErrorCode::kPolicyNotFound,
                       "Resource-based policy not found for the provided ResourceArn: "
                       "Requested policy update expecting none to be present for table Tab, "
                       "but a policy exists with revision id " +
                           first.revision_id + "."));
  db.clock.Advance(1000);
  ASSERT_OK_AND_ASSIGN(auto second, Put(db.engine.get(), kPolicyB, first.revision_id));
  const std::string mismatch =
      "Resource-based policy not found for the provided ResourceArn: Requested update for "
      "policy with revision id " +
      first.revision_id + ", but the policy associated to target table Tab has revision id " +
      second.revision_id + ".";
  EXPECT_THAT(Put(db.engine.get(), kPolicyA, first.revision_id).status(),
              StatusIs(ErrorCode::kPolicyNotFound, mismatch));
  EXPECT_THAT(Delete(db.engine.get(), first.revision_id).status(),
              StatusIs(ErrorCode::kPolicyNotFound, mismatch));
  EXPECT_EQ(Get(db.engine.get())->policy, kPolicyB);
  ASSERT_OK(Delete(db.engine.get(), second.revision_id).status());
}

TEST(ResourcePoliciesTest, ArnsAsDynamoDbAnswersThem) {
  TestEngine db;
  CreateTableRequest create = SimpleTable("Tab");
  create.stream_specification = StreamSpecification{true, StreamViewType::kNewImage};
  ASSERT_OK_AND_ASSIGN(TableDescription d, db->CreateTable(create));
  auto invalid = [&](const std::string& arn, const std::string& message) {
    EXPECT_THAT(Get(db.engine.get(), arn).status(), StatusIs(ErrorCode::kValidation, message))
        << arn;
    EXPECT_THAT(Put(db.engine.get(), kPolicyA, std::nullopt, arn).status(),
                StatusIs(ErrorCode::kValidation, message))
        << arn;
    EXPECT_THAT(Delete(db.engine.get(), std::nullopt, arn).status(),
                StatusIs(ErrorCode::kValidation, message))
        << arn;
  };
  const std::string p = "One or more parameter values were invalid: ";
  invalid("Tab", p + "ARNs must start with 'arn:': Tab");
  const std::string other_region =
      "arn:aws:dynamodb:us-east-1:" + std::string(kDefaultAccountId) +
      ":table/Tab";
  invalid(other_region, p + "Invalid resource Arn: " + other_region);
  const std::string cn =
      "arn:aws-cn:dynamodb:ddblocal:" + std::string(kDefaultAccountId) +
      ":table/Tab";
  invalid(cn, p + "Invalid resource Arn: " + cn);
  invalid("arn:aws:dynamodb:ddblocal:111111111111:table/Tab",
          "This action is only supported by accounts that match the resource owner\u2019s "
          "account.");
  const std::string index = std::string(kArn) + "/index/g";
  invalid(index, p + "Invalid resource arn provided, only table or stream is accepted. "
                     "Provided resource arn: " + index);
  const std::string backup = std::string(kArn) + "/backup/01";
  invalid(backup, p + "Provided Arn is not a DynamoDB resource " + backup);
  EXPECT_THAT(
      Get(db.engine.get(), "arn:aws:dynamodb:ddblocal:" +
                               std::string(kDefaultAccountId) + ":table/Nope")
          .status(),
      StatusIs(ErrorCode::kResourceNotFound,
               "Requested resource not found: Table: Nope not found"));
  EXPECT_THAT(Put(db.engine.get(), kPolicyA, std::nullopt, std::string(kArn) +
                                                                "/stream/2000-01-01T00:00:00.000")
                  .status(),
              StatusIs(ErrorCode::kResourceNotFound,
                       "Requested resource not found: Stream: 2000-01-01T00:00:00.000 not "
                       "found for Table: Tab"));
  // The stream is a slot of its own.
  ASSERT_FALSE(d.latest_stream_arn.empty());
  ASSERT_OK(Put(db.engine.get(), kPolicyB, std::nullopt, d.latest_stream_arn).status());
  EXPECT_THAT(Get(db.engine.get()).status(), StatusIs(ErrorCode::kPolicyNotFound, HasSubstr(kArn)));
  ASSERT_OK(Put(db.engine.get(), kPolicyA).status());
  EXPECT_EQ(Get(db.engine.get(), d.latest_stream_arn)->policy, kPolicyB);
  EXPECT_EQ(Get(db.engine.get())->policy, kPolicyA);
}

TEST(ResourcePoliciesTest, CreateTableRestartDeleteTableAndBackups) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("dynarock_resource_policies_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  SimulatedClock clock;
  EngineOptions options = TestEngine::Options();
  options.in_memory = false;
  options.path = dir.string();
  options.clock = &clock;
  std::string revision;
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    CreateTableRequest create = SimpleTable("Tab");
    create.resource_policy = kPolicyA;
    ASSERT_OK(db->CreateTable(create).status());
    ASSERT_OK_AND_ASSIGN(auto got, Get(db.get()));
    EXPECT_EQ(got.policy, kPolicyA);
    revision = got.revision_id;
  }
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    ASSERT_OK_AND_ASSIGN(auto got, Get(db.get()));
    EXPECT_EQ(got.policy, kPolicyA);
    EXPECT_EQ(got.revision_id, revision);
    // A backup's restore does not get the policy (DynamoDB's guide).
    CreateBackupRequest backup;
    backup.table_name = "Tab";
    backup.backup_name = "b";
    ASSERT_OK_AND_ASSIGN(BackupDescription b, db->CreateBackup(backup));
    RestoreTableFromBackupRequest restore;
    restore.target_table_name = "Restored";
    restore.backup_arn = b.backup_arn;
    ASSERT_OK(db->RestoreTableFromBackup(restore).status());
    EXPECT_THAT(
        Get(db.get(), "arn:aws:dynamodb:ddblocal:" +
                          std::string(kDefaultAccountId) + ":table/Restored")
            .status(),
        StatusIs(ErrorCode::kPolicyNotFound, HasSubstr("Restored")));
    DeleteTableRequest del;
    del.table_name = "Tab";
    ASSERT_OK(db->DeleteTable(del).status());
    clock.Advance(3'600'000'000);
    ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
    EXPECT_THAT(Get(db.get()).status(), StatusIs(ErrorCode::kPolicyNotFound, HasSubstr(kArn)));
  }
  std::filesystem::remove_all(dir);
}

TEST(ResourcePoliciesTest, RecordEncoding) {
  StoredPolicy p{std::string(kPolicyA), "1700000000000"};
  ASSERT_OK_AND_ASSIGN(StoredPolicy back, DecodeStoredPolicy(EncodeStoredPolicy(p)));
  EXPECT_EQ(back.policy, p.policy);
  EXPECT_EQ(back.revision_id, p.revision_id);
  std::string bytes = EncodeStoredPolicy(p);
  EXPECT_THAT(DecodeStoredPolicy(bytes.substr(0, bytes.size() - 1)).status(),
              StatusIs(ErrorCode::kCorruption, HasSubstr("resource policy")));
  bytes[0] = 9;  // an unknown version
  EXPECT_THAT(DecodeStoredPolicy(bytes).status(), StatusIs(ErrorCode::kCorruption, HasSubstr("resource policy")));
}

}  // namespace
}  // namespace dynarock
