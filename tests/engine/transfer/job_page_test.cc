#include "engine/transfer/job_page.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace dynarock {
namespace {

struct Job {
  int64_t start_micros;
  std::string arn;
};

const std::string& ArnOf(const Job& j) { return j.arn; }

std::vector<std::string> Arns(const std::vector<Job>& jobs) {
  std::vector<std::string> out;
  for (const auto& j : jobs) out.push_back(j.arn);
  return out;
}

TEST(JobPageTest, NewestFirstThenArnAndPagesWithTheLastArn) {
  std::vector<Job> jobs = {{30, "c"}, {10, "b"}, {20, "z"}, {10, "a"}, {40, "d"}};
  auto first = TakeJobPage(jobs, std::nullopt, 2, ArnOf);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(Arns(first->jobs), (std::vector<std::string>{"d", "c"}));
  ASSERT_TRUE(first->next_token.has_value());
  EXPECT_EQ(*first->next_token, "c");

  auto second = TakeJobPage(jobs, first->next_token, 2, ArnOf);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(Arns(second->jobs), (std::vector<std::string>{"z", "b"}));
  EXPECT_EQ(second->next_token, std::optional<std::string>("b"));

  auto last = TakeJobPage(jobs, second->next_token, 2, ArnOf);
  ASSERT_TRUE(last.ok());
  EXPECT_EQ(Arns(last->jobs), (std::vector<std::string>{"a"}));
  EXPECT_FALSE(last->next_token.has_value());
}

TEST(JobPageTest, AnExactlyFullLastPageHasNoToken) {
  std::vector<Job> jobs = {{1, "a"}, {2, "b"}};
  auto page = TakeJobPage(jobs, std::nullopt, 2, ArnOf);
  ASSERT_TRUE(page.ok());
  EXPECT_EQ(page->jobs.size(), 2u);
  EXPECT_FALSE(page->next_token.has_value());
}

TEST(JobPageTest, ATokenNamingNoJobIsInvalid) {
  std::vector<Job> jobs = {{1, "a"}};
  auto page = TakeJobPage(jobs, std::string("gone"), 25, ArnOf);
  ASSERT_FALSE(page.ok());
  EXPECT_EQ(page.status().code(), ErrorCode::kValidation);
  EXPECT_EQ(page.status().message(), "Invalid NextToken");
}

TEST(JobPageTest, NoJobsIsAnEmptyPage) {
  auto page = TakeJobPage(std::vector<Job>{}, std::nullopt, 25, ArnOf);
  ASSERT_TRUE(page.ok());
  EXPECT_TRUE(page->jobs.empty());
  EXPECT_FALSE(page->next_token.has_value());
}

}  // namespace
}  // namespace dynarock
