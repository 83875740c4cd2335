// api/transfer/ion_text.h
//
// Amazon Ion text, as DynamoDB's export to S3 writes it and its import from
// S3 reads it (developer guide: "DynamoDB table export output format",
// "Amazon S3 import formats for DynamoDB"): one item per line, each line the
// version marker and a struct `{Item:{...}}`, with DynamoDB's types mapped
// to Ion's:
//
//   S -> string          N -> decimal (103., 6d2, 1.5)   B -> blob {{...}}
//   BOOL -> bool         NULL -> null                    L -> list
//   M -> struct          SS / NS / BS -> list annotated $dynamodb_SS /
//                        $dynamodb_NS / $dynamodb_BS
//
// The reader takes any Ion text of such values: comments, several values
// per line or one value over several lines, a top-level list of records
// (the import guide's example), ints (also 0x / 0b), decimals
// and floats as numbers, short and long strings, quoted symbols and
// strings as field names, typed nulls as NULL, other annotations ignored.
// A value Ion has and DynamoDB does not (timestamp, symbol, clob, sexp,
// nan, infinities) makes its record an error, as does a top-level value
// that is not a struct with an `Item` struct; after a syntax error the
// reader resumes at the next line. Nesting is bounded (kMaxIonDepth), and
// neither direction recurses.
//
// Stateless functions; thread-safe.

#ifndef DYNAROCK_API_TRANSFER_ION_TEXT_H_
#define DYNAROCK_API_TRANSFER_ION_TEXT_H_

#include <memory>
#include <string>
#include <string_view>

#include "engine/transfer/transfer_files.h"
#include "engine/types.h"

namespace dynarock::api {

// The deepest nesting of Ion containers a value may have: a top-level list
// of records, the record's struct, its Item struct and DynamoDB's 32 levels
// of lists and maps.
inline constexpr int kMaxIonDepth = 35;

// Appends `$ion_1_0 {Item:{...}}` and a newline, one export data line, for
// an item in the engine's stored encoding (rendered from it, as
// api/encoded_item_json.h renders DynamoDB JSON). Errors: kCorruption
// (nothing appended).
Status AppendIonItemLine(std::string_view encoded_item, std::string* out);

// The records of `text`, pulled one at a time (what VisitIonRecords
// visits). `text` must outlive the reader.
class IonRecords {
 public:
  explicit IonRecords(std::string_view text);
  ~IonRecords();
  IonRecords(const IonRecords&) = delete;
  IonRecords& operator=(const IonRecords&) = delete;
  // The next record into *record (the item, or why the record is not one);
  // false at the end of the text.
  bool Next(Result<Item>* record);

 private:
  struct Rep;
  std::unique_ptr<Rep> rep_;
};

// Each record of `text` to `visit`: the item, or why the record is not one.
// Returns what `visit` returned when it is not OK.
Status VisitIonRecords(std::string_view text, const ImportRecordVisitor& visit);

}  // namespace dynarock::api

#endif  // DYNAROCK_API_TRANSFER_ION_TEXT_H_
