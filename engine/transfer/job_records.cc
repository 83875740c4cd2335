#include "engine/transfer/job_records.h"

#include <cstdio>

#include "engine/util/uuid.h"

namespace dynarock {

std::string JobRecordKey(char prefix, std::string_view ns, std::string_view arn) {
  std::string key(1, prefix);
  key.append(ns);
  key.push_back('\0');
  key.append(arn);
  return key;
}

std::string NewJobId(int64_t micros) {
  char ms[32];
  std::snprintf(ms, sizeof(ms), "%014lld", static_cast<long long>(micros / 1000));
  std::string hex;
  for (char c : NewUuid()) {
    if (c != '-') hex.push_back(c);
    if (hex.size() == 8) break;
  }
  return std::string(ms) + "-" + hex;
}

}  // namespace dynarock
