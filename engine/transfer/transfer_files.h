// engine/transfer/transfer_files.h
//
// TransferFiles is where exports are written and imports read: the files
// of DynamoDB's export layout (manifests, DynamoDB JSON data files) and of
// ImportTable's inputs (DynamoDB JSON, CSV). The engine runs the jobs --
// which items, at which time, status, persistence, the background thread
// -- and knows nothing of the formats, which are JSON and text: the
// implementation lives above the engine (api/transfer/s3_directory.h maps
// a bucket to a directory of the file system) and is handed to the engine
// in EngineOptions::transfer_files.
//
// Implementations must be thread-safe: jobs run on the engine's transfer
// thread while requests start new ones.

#ifndef DYNAROCK_ENGINE_TRANSFER_TRANSFER_FILES_H_
#define DYNAROCK_ENGINE_TRANSFER_TRANSFER_FILES_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/requests/bulk_requests.h"
#include "engine/requests/export_requests.h"
#include "engine/requests/import_requests.h"
#include "engine/status.h"
#include "engine/types.h"

namespace dynarock {

// The data and manifest files of one export. Add is called for every item
// of the export, then Finish once; a writer whose export failed is
// destroyed without Finish (its partial files stay, as DynamoDB's do).
class ExportWriter {
 public:
  virtual ~ExportWriter() = default;
  // One item, in the engine's encoding (engine/value/item_codec.h).
  virtual Status Add(std::string_view encoded_item) = 0;
  // Completes the data files and writes the manifests for `done` (status
  // COMPLETED, counts and end time set).
  virtual Status Finish(const ExportDescription& done) = 0;
};

// Called with each record an import reads: the item, or why the record
// is not one (a line that is not DynamoDB JSON, a CSV row with more fields
// than the header); such records are counted in ErrorCount and the import
// goes on. A non-OK return stops the reading with that status.
using ImportRecordVisitor = std::function<Status(Result<Item> record)>;

// One object of a bulk put items input (StartBulkPutItems).
struct BulkInputObject {
  std::string key;
  int64_t size_bytes = 0;
};
// Called with each record of a bulk input object, or why the record is not
// one (a line that is not JSON, a bad AttributeValue, an unknown member):
// such records fail alone and the object goes on.
using BulkRecordVisitor = std::function<Status(Result<BulkPutRecord> record)>;

// The records of one bulk input object, pulled one at a time, decompressed
// as they are read: a job holds a reader over its object, never the object
// (for DYNAMODB_JSON; an ION object's decompressed text is held by its
// reader, as its records may span lines). Not thread-safe.
class BulkObjectReader {
 public:
  virtual ~BulkObjectReader() = default;
  // The next record into *record: the record, or why it is not one (it
  // fails alone). False at the end of the object, or when the object stops
  // (status()).
  virtual bool Next(Result<BulkPutRecord>* record) = 0;
  // Moves past the next record without decoding it; false as Next. Skip
  // and Next agree on where records are.
  virtual bool Skip() = 0;
  // OK while records come and at the end of the object; once Next or Skip
  // returned false for it, why the object stops: kValidation (it does not
  // decompress, or is not of the format at all), kIOError.
  virtual Status status() const = 0;
};

class TransferFiles {
 public:
  virtual ~TransferFiles() = default;
  // Starts writing the export `desc` (its bucket, prefix and id): writes
  // the `_started` marker, removing what an interrupted run of the same
  // export left. Errors: kResourceNotFound when the bucket does not exist
  // (FailureCode S3NoSuchBucket), kIOError.
  virtual Result<std::unique_ptr<ExportWriter>> NewExport(const ExportDescription& desc) = 0;
  // Reads every record of the import `desc` (its bucket source, format,
  // CSV options and compression; CSV key columns typed as `desc.table`'s
  // attribute definitions, every other column a string, as DynamoDB does)
  // and answers the bytes of the files read. Errors: kResourceNotFound (no
  // bucket: FailureCode S3NoSuchBucket), kValidation (no file under the
  // prefix, a file that does not decompress: the import fails), kIOError,
  // or what `visit` returned.
  virtual Result<int64_t> ReadImport(const ImportTableDescription& desc,
                                     const ImportRecordVisitor& visit) = 0;

  // Bulk put items. The default implementations have no buckets: every
  // call fails with kResourceNotFound, as a missing bucket does.
  //
  // The objects of `input`'s bucket whose key starts with its prefix, in
  // key order. Errors: kResourceNotFound (no bucket), kIOError.
  virtual Result<std::vector<BulkInputObject>> ListBulkInput(const BulkInputSource& input);
  // A reader of object `key`'s records, decompressed and decoded as
  // `input` says. Errors: kValidation (the object does not decompress, or
  // its key leaves the bucket: the object stops), kIOError.
  virtual Result<std::unique_ptr<BulkObjectReader>> OpenBulkObject(const BulkInputSource& input,
                                                                  const std::string& key);
  // Writes `entries` as one report object under `output`'s bucket and
  // prefix, named by the operation id and `part`. Errors: kResourceNotFound
  // (no bucket), kIOError.
  virtual Status WriteBulkReport(const BulkOutputTarget& output, const std::string& operation_id,
                                 int64_t part, const std::vector<BulkReportEntry>& entries);
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_TRANSFER_TRANSFER_FILES_H_
