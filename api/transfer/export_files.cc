#include "api/transfer/export_files.h"

#include <openssl/evp.h>
#include <zlib.h>

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>
#include <vector>

#include "api/encoded_item_json.h"
#include "api/json_codec.h"
#include "api/transfer/ion_text.h"
#include "engine/util/base64.h"

namespace dynarock::api {
namespace {

namespace fs = std::filesystem;

Status IoError(const std::string& what, const std::string& path) {
  return Status(ErrorCode::kIOError, what + ": " + path);
}

Status WriteFile(const std::string& path, std::string_view data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
  out.close();
  if (!out) return IoError("cannot write", path);
  return Status::OK();
}

// 26 characters of [a-z2-7], as DynamoDB names its data files.
std::string RandomName() {
  static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz234567";
  thread_local std::mt19937_64 rng(std::random_device{}());
  std::string out;
  for (int i = 0; i < 26; ++i) out.push_back(kAlphabet[rng() % 32]);
  return out;
}

std::string HexOf(const unsigned char* bytes, size_t n) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    out.push_back(kHex[bytes[i] >> 4]);
    out.push_back(kHex[bytes[i] & 15]);
  }
  return out;
}

std::string Md5Hex(std::string_view data) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(data.data(), data.size(), md, &n, EVP_md5(), nullptr);
  return HexOf(md, n);
}

class ExportFiles final : public ExportWriter {
 public:
  ExportFiles(const ExportDescription& desc, std::string dir, std::string key_prefix,
              int64_t items_per_file)
      : dir_(std::move(dir)),
        key_prefix_(std::move(key_prefix)),
        items_per_file_(std::max<int64_t>(1, items_per_file)),
        ion_(desc.export_format == ExportFormat::kIon) {}
  ~ExportFiles() override {
    if (file_ != nullptr) gzclose(file_);
  }

  Status Start() {
    std::error_code ec;
    fs::remove_all(dir_, ec);  // an interrupted run's files
    fs::create_directories(dir_ + "/data", ec);
    if (ec) return IoError("cannot create directory", dir_ + "/data");
    return WriteFile(dir_ + "/_started", "");
  }

  Status Add(std::string_view encoded_item) override {
    if (file_ == nullptr || in_file_ == items_per_file_) DR_RETURN_IF_ERROR(NextFile());
    line_.clear();
    if (ion_) {
      DR_RETURN_IF_ERROR(AppendIonItemLine(encoded_item, &line_));
    } else {
      line_.assign("{\"Item\":");
      DR_RETURN_IF_ERROR(AppendEncodedItemJson(encoded_item, &line_));
      line_.append("}\n");
    }
    if (gzwrite(file_, line_.data(), static_cast<unsigned>(line_.size())) !=
        static_cast<int>(line_.size())) {
      return IoError("cannot write", files_.back().path);
    }
    ++in_file_;
    ++files_.back().items;
    return Status::OK();
  }

  Status Finish(const ExportDescription& d) override {
    if (file_ == nullptr) DR_RETURN_IF_ERROR(NextFile());  // an empty table: one empty file
    DR_RETURN_IF_ERROR(CloseFile());
    std::string manifest_files;
    for (const DataFile& f : files_) {
      DR_ASSIGN_OR_RETURN(FileMd5 md5, Md5OfFile(f.path));
      Json line = {{"itemCount", f.items},
                   {"md5Checksum", md5.base64},
                   {"etag", md5.hex},
                   {"dataFileS3Key", f.key}};
      manifest_files += line.dump() + "\n";
    }
    const std::string files_key = key_prefix_ + "manifest-files.json";
    DR_RETURN_IF_ERROR(WriteFile(dir_ + "/manifest-files.json", manifest_files));
    DR_RETURN_IF_ERROR(WriteFile(dir_ + "/manifest-files.checksum", Md5Hex(manifest_files)));
    Json summary = {
        {"version", "2020-06-30"},
        {"exportArn", d.export_arn},
        {"startTime", IsoTime(d.start_micros)},
        {"endTime", IsoTime(d.end_micros.value_or(d.start_micros))},
        {"tableArn", d.table_arn},
        {"tableId", d.table_id},
        {"exportTime", IsoTime(d.export_micros)},
        {"s3Bucket", d.s3_bucket},
        {"s3Prefix", d.s3_prefix ? Json(*d.s3_prefix) : Json(nullptr)},
        {"s3SseAlgorithm", d.s3_sse_algorithm},
        {"s3SseKmsKeyId", d.s3_sse_kms_key_id ? Json(*d.s3_sse_kms_key_id) : Json(nullptr)},
        {"manifestFilesS3Key", files_key},
        {"billedSizeBytes", d.billed_size_bytes},
        {"itemCount", d.item_count},
        {"outputFormat", std::string(ExportFormatName(d.export_format))},
        {"exportType", std::string(ExportTypeName(d.export_type))},
    };
    const std::string text = summary.dump() + "\n";
    DR_RETURN_IF_ERROR(WriteFile(dir_ + "/manifest-summary.checksum", Md5Hex(text)));
    // Last: a reader that finds the summary finds everything it names.
    return WriteFile(dir_ + "/manifest-summary.json", text);
  }

 private:
  struct DataFile {
    std::string path;
    std::string key;
    int64_t items = 0;
  };

  Status NextFile() {
    DR_RETURN_IF_ERROR(CloseFile());
    const std::string name = RandomName() + (ion_ ? ".ion.gz" : ".json.gz");
    files_.push_back(DataFile{dir_ + "/data/" + name, key_prefix_ + "data/" + name, 0});
    file_ = gzopen(files_.back().path.c_str(), "wb6");
    if (file_ == nullptr) return IoError("cannot create", files_.back().path);
    in_file_ = 0;
    return Status::OK();
  }

  Status CloseFile() {
    if (file_ == nullptr) return Status::OK();
    const int rc = gzclose(file_);
    file_ = nullptr;
    if (rc != Z_OK) return IoError("cannot write", files_.back().path);
    return Status::OK();
  }

  const std::string dir_;
  const std::string key_prefix_;
  const int64_t items_per_file_;
  const bool ion_;  // ExportFormat ION: Amazon Ion text lines (ion_text.h)
  std::vector<DataFile> files_;
  gzFile file_ = nullptr;
  int64_t in_file_ = 0;
  std::string line_;
};

}  // namespace

std::string IsoTime(int64_t micros) {
  const int64_t ms = micros / 1000;
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[96];
  std::snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>(ms % 1000));
  return buf;
}

Result<FileMd5> Md5OfFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return IoError("cannot read", path);
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  EVP_DigestInit_ex(ctx, EVP_md5(), nullptr);
  std::vector<char> buf(1 << 16);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    EVP_DigestUpdate(ctx, buf.data(), static_cast<size_t>(in.gcount()));
  }
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_DigestFinal_ex(ctx, md, &n);
  EVP_MD_CTX_free(ctx);
  FileMd5 out;
  out.hex = HexOf(md, n);
  out.base64 = Base64Encode(std::string_view(reinterpret_cast<const char*>(md), n));
  return out;
}

Result<std::unique_ptr<ExportWriter>> NewExportFiles(const ExportDescription& desc,
                                                     std::string export_dir,
                                                     std::string key_prefix,
                                                     int64_t items_per_file) {
  auto files = std::make_unique<ExportFiles>(desc, std::move(export_dir),
                                             std::move(key_prefix), items_per_file);
  DR_RETURN_IF_ERROR(files->Start());
  return std::unique_ptr<ExportWriter>(std::move(files));
}

}  // namespace dynarock::api
