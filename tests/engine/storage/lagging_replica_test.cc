#include "engine/storage/lagging_replica.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>

#include "tests/testutil/status_matchers.h"

namespace dynarock {
namespace {

constexpr int64_t kMs = 1000;

class LaggingReplicaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    StoreOptions o;
    o.in_memory = true;
    auto s = Store::Open(o);
    ASSERT_OK(s.status());
    store_ = std::move(s).value();
  }

  // A write as the write path makes it: the replica is told first.
  void Write(LaggingReplica& r, const std::string& value) {
    r.BeforeWrite();
    WriteBatch b;
    b.Put(Cf::kItems, "k", value);
    ASSERT_OK(store_->Write(&b));
  }

  // What an eventually consistent read of "k" sees now.
  std::optional<std::string> Read(LaggingReplica& r) {
    std::shared_ptr<const StoreSnapshot> view = r.View();
    auto v = view != nullptr ? view->Get(Cf::kItems, "k") : store_->Get(Cf::kItems, "k");
    EXPECT_OK(v.status());
    return v.ok() ? *v : std::nullopt;
  }

  SimulatedClock clock_;
  std::unique_ptr<Store> store_;
};

TEST_F(LaggingReplicaTest, NoLagKeepsNothingAndReadsTheLatest) {
  LaggingReplica r(store_.get(), &clock_, 0);
  EXPECT_FALSE(r.lagging());
  Write(r, "v1");
  EXPECT_EQ(r.View(), nullptr);
  EXPECT_EQ(Read(r), "v1");
}

TEST_F(LaggingReplicaTest, AReadSeesTheStateOfLagAgo) {
  LaggingReplica r(store_.get(), &clock_, 100 * kMs);
  Write(r, "v1");
  // Just written: the replica has not seen it.
  EXPECT_EQ(Read(r), std::nullopt);
  clock_.Advance(50 * kMs);
  Write(r, "v2");
  EXPECT_EQ(Read(r), std::nullopt);
  clock_.Advance(50 * kMs);  // v1 is 100 ms old, v2 50 ms
  EXPECT_EQ(Read(r), "v1");
  clock_.Advance(49 * kMs);
  EXPECT_EQ(Read(r), "v1");
  clock_.Advance(1 * kMs);  // v2 is 100 ms old: nothing newer, the latest
  EXPECT_EQ(Read(r), "v2");
  EXPECT_EQ(r.View(), nullptr);
}

TEST_F(LaggingReplicaTest, WritesWithinOneInstantAreAllUnseenTogether) {
  LaggingReplica r(store_.get(), &clock_, 10 * kMs);
  Write(r, "old");
  clock_.Advance(20 * kMs);
  for (int i = 0; i < 5; ++i) Write(r, "new" + std::to_string(i));
  EXPECT_EQ(Read(r), "old");
  clock_.Advance(10 * kMs);
  EXPECT_EQ(Read(r), "new4");
}

TEST_F(LaggingReplicaTest, AFailedWriteExtendsTheViewItWouldHaveChanged) {
  LaggingReplica r(store_.get(), &clock_, 10 * kMs);
  Write(r, "v1");
  clock_.Advance(20 * kMs);
  r.BeforeWrite();  // this write never commits
  clock_.Advance(5 * kMs);
  Write(r, "v2");
  // 5 ms after the last write: the state before it, which is v1.
  EXPECT_EQ(Read(r), "v1");
}

TEST_F(LaggingReplicaTest, OldViewsAreReleased) {
  LaggingReplica r(store_.get(), &clock_, 10 * kMs);
  for (int i = 0; i < 100; ++i) {
    Write(r, "v" + std::to_string(i));
    clock_.Advance(1 * kMs);
  }
  // v_i was written at i ms; it is 100 ms now: a read sees the state of
  // 90 ms, v90 included, held in the view taken before v91.
  std::shared_ptr<const StoreSnapshot> view = r.View();
  ASSERT_NE(view, nullptr);
  ASSERT_OK_AND_ASSIGN(auto v, view->Get(Cf::kItems, "k"));
  EXPECT_EQ(v, "v90");
  EXPECT_EQ(view.use_count(), 2);  // this one and the replica's
  clock_.Advance(10 * kMs);
  EXPECT_EQ(r.View(), nullptr);
  EXPECT_EQ(view.use_count(), 1);  // released by the replica
}

}  // namespace
}  // namespace dynarock
