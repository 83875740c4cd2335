#include "api/transfer/s3_directory.h"

#include <algorithm>
#include <filesystem>
#include <vector>
#include <utility>

#include "api/transfer/export_files.h"
#include "api/transfer/import_files.h"

namespace dynarock::api {

namespace fs = std::filesystem;

S3Directory::S3Directory(std::string root, int64_t items_per_file)
    : root_(std::move(root)), items_per_file_(items_per_file) {}

Result<std::string> S3Directory::ObjectPath(std::string_view bucket,
                                            std::string_view key) const {
  const std::string dir = root_ + "/" + std::string(bucket);
  std::error_code ec;
  if (bucket.empty() || bucket.find('/') != std::string_view::npos || bucket == "." ||
      bucket == ".." || !fs::is_directory(dir, ec)) {
    return Status(ErrorCode::kResourceNotFound, "The specified bucket does not exist");
  }
  // Every part of the key must name a file or directory inside the bucket.
  size_t start = 0;
  while (start < key.size()) {
    size_t end = key.find('/', start);
    if (end == std::string_view::npos) end = key.size();
    const std::string_view part = key.substr(start, end - start);
    if (part == "." || part == ".." || (part.empty() && end != key.size())) {
      return Status::Validation("The key " + std::string(key) +
                                " has a part that is empty, '.' or '..'");
    }
    start = end + 1;
  }
  return dir + "/" + std::string(key);
}

Result<std::unique_ptr<ExportWriter>> S3Directory::NewExport(const ExportDescription& desc) {
  std::string prefix = desc.s3_prefix.value_or("");
  if (!prefix.empty() && prefix.back() != '/') prefix.push_back('/');
  const std::string key_prefix = prefix + "AWSDynamoDB/" + desc.ExportId() + "/";
  DR_ASSIGN_OR_RETURN(std::string dir,
                      ObjectPath(desc.s3_bucket, key_prefix.substr(0, key_prefix.size() - 1)));
  return NewExportFiles(desc, std::move(dir), key_prefix, items_per_file_);
}

Result<int64_t> S3Directory::ReadImport(const ImportTableDescription& desc,
                                        const ImportRecordVisitor& visit) {
  DR_ASSIGN_OR_RETURN(std::string bucket_dir, ObjectPath(desc.source.s3_bucket, ""));
  const std::string prefix = desc.source.s3_key_prefix.value_or("");
  std::vector<std::pair<std::string, std::string>> files;  // (key, path)
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(bucket_dir, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const std::string path = it->path().string();
    std::string key = path.substr(bucket_dir.size());
    if (key.rfind(prefix, 0) == 0) files.emplace_back(std::move(key), path);
  }
  if (ec) return Status(ErrorCode::kIOError, "cannot list " + bucket_dir + ": " + ec.message());
  // No object under the prefix is an empty import (DynamoDB's completes with
  // an empty table: AWS controllers' API-quirks lab, October 2026).
  std::sort(files.begin(), files.end());
  int64_t bytes = 0;
  for (const auto& [key, path] : files) {
    bytes += static_cast<int64_t>(fs::file_size(path, ec));
    DR_ASSIGN_OR_RETURN(std::string text, ReadInputFile(path, desc.compression));
    DR_RETURN_IF_ERROR(VisitImportRecords(text, desc, visit));
  }
  return bytes;
}

}  // namespace dynarock::api
