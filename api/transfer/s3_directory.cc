#include "api/transfer/s3_directory.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <filesystem>
#include <vector>
#include <utility>

#include "api/transfer/bulk_files.h"
#include "api/transfer/export_files.h"
#include "api/transfer/import_files.h"
#include "api/transfer/input_stream.h"

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

namespace {

// The objects of the bucket in `bucket_dir` whose key starts with `prefix`,
// in key order: (key, path, size).
struct ObjectFile {
  std::string key;
  std::string path;
  int64_t size = 0;
};

Result<std::vector<ObjectFile>> ListObjects(const std::string& bucket_dir,
                                            const std::string& prefix) {
  std::vector<ObjectFile> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(bucket_dir, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const std::string path = it->path().string();
    std::string key = path.substr(bucket_dir.size() + 1);
    if (key.rfind(prefix, 0) != 0) continue;
    const auto size = fs::file_size(path, ec);
    files.push_back(ObjectFile{std::move(key), path, ec ? 0 : static_cast<int64_t>(size)});
    ec.clear();
  }
  if (ec) return Status(ErrorCode::kIOError, "cannot list " + bucket_dir + ": " + ec.message());
  std::sort(files.begin(), files.end(),
            [](const ObjectFile& a, const ObjectFile& b) { return a.key < b.key; });
  return files;
}

}  // namespace

Result<int64_t> S3Directory::ReadImport(const ImportTableDescription& desc,
                                        const ImportRecordVisitor& visit) {
  DR_ASSIGN_OR_RETURN(std::string bucket_dir, ObjectPath(desc.source.s3_bucket, ""));
  // No object under the prefix is an empty import (DynamoDB's completes with
  // an empty table: AWS controllers' API-quirks lab, October 2026).
  DR_ASSIGN_OR_RETURN(std::vector<ObjectFile> files,
                      ListObjects(bucket_dir.substr(0, bucket_dir.size() - 1),
                                  desc.source.s3_key_prefix.value_or("")));
  int64_t bytes = 0;
  for (const ObjectFile& f : files) {
    bytes += f.size;
    DR_RETURN_IF_ERROR(VisitImportFile(f.path, desc, visit));
  }
  return bytes;
}

Result<std::vector<BulkInputObject>> S3Directory::ListBulkInput(const BulkInputSource& input) {
  DR_ASSIGN_OR_RETURN(std::string bucket_dir, ObjectPath(input.s3_bucket, ""));
  DR_ASSIGN_OR_RETURN(std::vector<ObjectFile> files,
                      ListObjects(bucket_dir.substr(0, bucket_dir.size() - 1),
                                  input.s3_key_prefix.value_or("")));
  std::vector<BulkInputObject> objects;
  for (ObjectFile& f : files) objects.push_back(BulkInputObject{std::move(f.key), f.size});
  return objects;
}

Result<std::unique_ptr<BulkObjectReader>> S3Directory::OpenBulkObject(
    const BulkInputSource& input, const std::string& key) {
  DR_ASSIGN_OR_RETURN(std::string path, ObjectPath(input.s3_bucket, key));
  DR_ASSIGN_OR_RETURN(std::unique_ptr<InputStream> in, InputStream::Open(path, input.compression));
  return NewBulkObjectReader(std::move(in), input.input_format);
}

Status S3Directory::WriteBulkReport(const BulkOutputTarget& output,
                                    const std::string& operation_id, int64_t part,
                                    const std::vector<BulkReportEntry>& entries) {
  std::string prefix = output.s3_key_prefix.value_or("");
  if (!prefix.empty() && prefix.back() != '/') prefix.push_back('/');
  char name[32];
  std::snprintf(name, sizeof(name), "report-%05lld.json", static_cast<long long>(part));
  const std::string key =
      prefix + "AWSDynamoDB/BulkOperations/" + operation_id + "/" + name;
  DR_ASSIGN_OR_RETURN(std::string path, ObjectPath(output.s3_bucket.value_or(""), key));
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  if (ec) return Status(ErrorCode::kIOError, "cannot create " + path + ": " + ec.message());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << BulkReportText(entries);
  out.close();
  if (!out) return Status(ErrorCode::kIOError, "cannot write " + path);
  return Status::OK();
}

}  // namespace dynarock::api
