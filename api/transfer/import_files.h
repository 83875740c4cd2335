// api/transfer/import_files.h
//
// The records of ImportTable's input files: DynamoDB JSON (one
// {"Item":{...}} object per line, what an export's data files hold), Amazon
// Ion text (`$ion_1_0 {Item:{...}}` records, api/transfer/ion_text.h) or CSV
// (a header row, or InputFormatOptions.Csv.HeaderList; Delimiter; quoted
// fields with "" escapes and line breaks), each file whole or compressed
// with GZIP or ZSTD. A CSV row is an item of its non-empty columns: the key
// attributes typed as the new table's attribute definitions say (N parsed
// as a number, B as base64), every other column a string, as DynamoDB's
// CSV import does. A record that is not an item (a line that is not JSON
// or has no "Item" map, a bad AttributeValue, a CSV row with more fields
// than the header, a key column that does not parse) reaches the visitor
// as an error, to be counted; the import goes on.
//
// Stateless functions; thread-safe.

#ifndef DYNAROCK_API_TRANSFER_IMPORT_FILES_H_
#define DYNAROCK_API_TRANSFER_IMPORT_FILES_H_

#include <functional>
#include <string>
#include <string_view>

#include "api/json_codec.h"
#include "engine/transfer/transfer_files.h"

namespace dynarock::api {

// The content of `path`, decompressed as `compression` says.
// Errors: kIOError (cannot read), kValidation (not of that compression).
Result<std::string> ReadInputFile(const std::string& path, InputCompression compression);

// Each record of the file `path`, decompressed and decoded as `desc` says:
// DynamoDB JSON a line at a time (api/transfer/input_stream.h: the file is
// never held whole), CSV and Ion from the file's whole text (their records
// may span lines). Errors: those of ReadInputFile, or what `visit` returned.
Status VisitImportFile(const std::string& path, const ImportTableDescription& desc,
                       const ImportRecordVisitor& visit);

// Each record of one file's (decompressed) text, as `desc` says.
Status VisitImportRecords(std::string_view text, const ImportTableDescription& desc,
                          const ImportRecordVisitor& visit);

// Calls `visit` with each line of `text` that is not blank (JSON Lines),
// stopping at the first error it returns.
Status ForEachRecordLine(std::string_view text,
                         const std::function<Status(std::string_view line)>& visit);

// The "Item" map of one DynamoDB JSON record ({"Item":{...}}), decoded.
// Errors: kValidation (no "Item" map, a malformed AttributeValue).
Result<Item> DecodeItemMember(const Json& record);

}  // namespace dynarock::api

#endif  // DYNAROCK_API_TRANSFER_IMPORT_FILES_H_
