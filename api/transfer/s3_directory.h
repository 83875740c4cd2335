// api/transfer/s3_directory.h
//
// S3Directory stands for Amazon S3 on the local file system: bucket B is the
// directory <root>/B (it must exist, as a bucket must: `mkdir` creates one)
// and the object with key K is the file <root>/B/K, its '/'-separated parts
// being subdirectories. ExportTableToPointInTime writes DynamoDB's export
// layout there (api/transfer/export_files.h) and ImportTable reads its
// input files from there. `dynarock serve --s3-dir` is the root.
//
// Thread-safe (each export and import has its own files).

#ifndef DYNAROCK_API_TRANSFER_S3_DIRECTORY_H_
#define DYNAROCK_API_TRANSFER_S3_DIRECTORY_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/transfer/transfer_files.h"

namespace dynarock::api {

class S3Directory final : public TransferFiles {
 public:
  // `root`: the directory holding the buckets (nothing is created: a
  // bucket is a directory someone made, under a root someone made).
  // `items_per_file`: items per export data file (DynamoDB writes at least
  // one file per partition; here the files are cut by count).
  explicit S3Directory(std::string root, int64_t items_per_file = 1'000'000);

  Result<std::unique_ptr<ExportWriter>> NewExport(const ExportDescription& desc) override;
  // Every file of the bucket whose key starts with the S3KeyPrefix, in key
  // order (api/transfer/import_files.h reads each).
  Result<int64_t> ReadImport(const ImportTableDescription& desc,
                             const ImportRecordVisitor& visit) override;
  // Bulk put items: the files under the prefix (api/transfer/bulk_files.h
  // streams each), and the reports, written as
  // <output bucket>/<prefix>/AWSDynamoDB/BulkOperations/<operation id>/report-<part>.json.
  Result<std::vector<BulkInputObject>> ListBulkInput(const BulkInputSource& input) override;
  Result<std::unique_ptr<BulkObjectReader>> OpenBulkObject(const BulkInputSource& input,
                                                          const std::string& key) override;
  Status WriteBulkReport(const BulkOutputTarget& output, const std::string& operation_id,
                         int64_t part, const std::vector<BulkReportEntry>& entries) override;

  // The file of object `key` in `bucket`. Errors: kResourceNotFound ("The
  // specified bucket does not exist"), kValidation (a key with an empty,
  // "." or ".." part, which would leave the bucket's directory).
  Result<std::string> ObjectPath(std::string_view bucket, std::string_view key) const;

  const std::string& root() const { return root_; }

 private:
  const std::string root_;
  const int64_t items_per_file_;
};

}  // namespace dynarock::api

#endif  // DYNAROCK_API_TRANSFER_S3_DIRECTORY_H_
