// api/transfer/export_files.h
//
// The files of one DynamoDB export, in DynamoDB's layout under
// <S3Prefix>/AWSDynamoDB/<ExportId>/ (DynamoDB developer guide, "DynamoDB
// table export output format"):
//
//   _started                 empty, written first
//   data/<26 chars>.json.gz  gzip; one {"Item":{...}} DynamoDB JSON object
//                            per line (at least one file, empty when the
//                            table is); ExportFormat ION: .ion.gz, one
//                            `$ion_1_0 {Item:{...}}` per line (ion_text.h)
//   manifest-files.json      one line per data file: itemCount,
//                            md5Checksum (base64), etag (hex MD5),
//                            dataFileS3Key
//   manifest-summary.json    the export (version 2020-06-30, exportArn,
//                            times in ISO 8601 UTC, counts, outputFormat,
//                            manifestFilesS3Key, ...), written last
//   manifest-*.checksum      the hex MD5 of each manifest
//
// Not thread-safe: one export's writer is used by one thread.

#ifndef DYNAROCK_API_TRANSFER_EXPORT_FILES_H_
#define DYNAROCK_API_TRANSFER_EXPORT_FILES_H_

#include <memory>
#include <string>

#include "engine/transfer/transfer_files.h"

namespace dynarock::api {

// A writer of the export `desc` into the directory `export_dir` (the
// bucket's <prefix>AWSDynamoDB/<ExportId>), whose keys in the bucket start
// with `key_prefix` (<prefix>AWSDynamoDB/<ExportId>/). Removes what an
// interrupted run of the same export left. Errors: kIOError.
Result<std::unique_ptr<ExportWriter>> NewExportFiles(const ExportDescription& desc,
                                                     std::string export_dir,
                                                     std::string key_prefix,
                                                     int64_t items_per_file);

// ISO 8601 UTC with milliseconds ("2020-11-04T07:28:34.028Z"), as the
// manifests write times.
std::string IsoTime(int64_t micros);

// MD5 of a file: hex (S3's etag) and base64 (Content-MD5).
struct FileMd5 {
  std::string hex;
  std::string base64;
};
Result<FileMd5> Md5OfFile(const std::string& path);

}  // namespace dynarock::api

#endif  // DYNAROCK_API_TRANSFER_EXPORT_FILES_H_
