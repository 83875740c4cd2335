// engine/transfer/job_page.h
//
// One page of a List* answer over transfer jobs (ListExports, ListImports):
// the jobs newest first (by start time, then ARN, both descending), as
// DynamoDB lists them (AWS controllers' API-quirks lab, October 2026),
// starting after the job the
// NextToken names, at most `limit` of them, and the NextToken of the next
// page when more remain. DynamoDB's tokens are opaque; ours is the ARN of a
// page's last job, so a token that names no job is "Invalid NextToken".

#ifndef DYNAROCK_ENGINE_TRANSFER_JOB_PAGE_H_
#define DYNAROCK_ENGINE_TRANSFER_JOB_PAGE_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "engine/status.h"

namespace dynarock {

template <typename Job>
struct JobPage {
  std::vector<Job> jobs;
  std::optional<std::string> next_token;
};

// `arn_of(job)` gives a job's ARN (a const std::string&); jobs carry
// `start_micros`.
// DynamoDB's page when MaxResults / PageSize is not given.
inline constexpr size_t kDefaultJobPage = 10;

template <typename Job, typename ArnOf>
Result<JobPage<Job>> TakeJobPage(std::vector<Job> all,
                                 const std::optional<std::string>& next_token, size_t limit,
                                 ArnOf arn_of) {
  std::sort(all.begin(), all.end(), [&](const Job& a, const Job& b) {
    return std::tie(a.start_micros, arn_of(a)) > std::tie(b.start_micros, arn_of(b));
  });
  size_t start = 0;
  if (next_token) {
    auto it = std::find_if(all.begin(), all.end(),
                           [&](const Job& j) { return arn_of(j) == *next_token; });
    if (it == all.end()) return Status::Validation("Invalid NextToken");
    start = static_cast<size_t>(it - all.begin()) + 1;
  }
  JobPage<Job> page;
  for (size_t i = start; i < all.size(); ++i) {
    if (page.jobs.size() == limit) {
      page.next_token = arn_of(page.jobs.back());
      break;
    }
    page.jobs.push_back(std::move(all[i]));
  }
  return page;
}

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_TRANSFER_JOB_PAGE_H_
