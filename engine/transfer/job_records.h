// engine/transfer/job_records.h
//
// What the transfer jobs' records (exports, imports, bulk put items) share:
// their key in the meta column family and the form of a new job's id.

#ifndef DYNAROCK_ENGINE_TRANSFER_JOB_RECORDS_H_
#define DYNAROCK_ENGINE_TRANSFER_JOB_RECORDS_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace dynarock {

// `prefix` ns "\0" arn: one job's record, the jobs of a kind together and
// those of a namespace (an account and Region) together within them.
std::string JobRecordKey(char prefix, std::string_view ns, std::string_view arn);

// "<14-digit milliseconds>-<8 hex digits>", the form of DynamoDB's export and
// import ids; the milliseconds of `micros`, the digits random.
std::string NewJobId(int64_t micros);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_TRANSFER_JOB_RECORDS_H_
