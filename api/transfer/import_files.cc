#include "api/transfer/import_files.h"

#include <vector>

#include "api/json_codec.h"
#include "api/transfer/input_stream.h"
#include "api/transfer/ion_text.h"

namespace dynarock::api {
namespace {

// One DynamoDB JSON line: {"Item":{...}}.
Result<Item> DecodeJsonLine(std::string_view line) {
  // Nesting is bounded before anything is built (ParseRequestBody).
  DR_ASSIGN_OR_RETURN(Json parsed, ParseRequestBody(line));
  return DecodeItemMember(parsed);
}

Status VisitJsonLines(std::string_view text, const ImportRecordVisitor& visit) {
  return ForEachRecordLine(text, [&](std::string_view line) -> Status {
    return visit(DecodeJsonLine(line));
  });
}

// Splits CSV text into rows of fields (RFC 4180: quoted fields, "" inside
// quotes, line breaks inside quotes; CRLF or LF between rows).
class CsvReader {
 public:
  CsvReader(std::string_view text, char delimiter) : text_(text), delimiter_(delimiter) {}

  // The next row; false at the end.
  bool Next(std::vector<std::string>* row) {
    row->clear();
    if (pos_ >= text_.size()) return false;
    std::string field;
    bool quoted = false;
    while (pos_ < text_.size()) {
      const char c = text_[pos_++];
      if (quoted) {
        if (c == '"') {
          if (pos_ < text_.size() && text_[pos_] == '"') {
            field.push_back('"');
            ++pos_;
          } else {
            quoted = false;
          }
        } else {
          field.push_back(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == delimiter_) {
        row->push_back(std::move(field));
        field.clear();
      } else if (c == '\n') {
        break;
      } else if (c != '\r') {
        field.push_back(c);
      }
    }
    row->push_back(std::move(field));
    return true;
  }

 private:
  std::string_view text_;
  const char delimiter_;
  size_t pos_ = 0;
};

Result<AttributeValue> CsvValue(const std::string& text, AttrType type) {
  switch (type) {
    case AttrType::kN: {
      DR_ASSIGN_OR_RETURN(Number n, Number::Parse(text));
      return AttributeValue::N(std::move(n));
    }
    case AttrType::kB: {
      DR_ASSIGN_OR_RETURN(std::string bytes, Base64Decode(text));
      return AttributeValue::B(std::move(bytes));
    }
    default:
      return AttributeValue::S(text);
  }
}

Status VisitCsv(std::string_view text, const ImportTableDescription& desc,
                const ImportRecordVisitor& visit) {
  const char delimiter =
      desc.csv.delimiter && !desc.csv.delimiter->empty() ? (*desc.csv.delimiter)[0] : ',';
  CsvReader reader(text, delimiter);
  std::vector<std::string> header;
  if (desc.csv.header_list) header = *desc.csv.header_list;
  std::vector<std::string> row;
  if (!desc.csv.header_list && !reader.Next(&header)) return Status::OK();
  while (reader.Next(&row)) {
    if (row.size() == 1 && row[0].empty()) continue;  // a blank line
    Result<Item> record = [&]() -> Result<Item> {
      if (row.size() > header.size()) {
        return Status::Validation("The row has more fields than the header");
      }
      Item item;
      for (size_t i = 0; i < row.size(); ++i) {
        if (row[i].empty()) continue;
        AttrType type = AttrType::kS;
        for (const AttributeDefinition& a : desc.table.attribute_definitions) {
          if (a.attribute_name == header[i]) type = a.attribute_type;
        }
        DR_ASSIGN_OR_RETURN(item[header[i]], CsvValue(row[i], type));
      }
      return item;
    }();
    DR_RETURN_IF_ERROR(visit(std::move(record)));
  }
  return Status::OK();
}

}  // namespace

Status ForEachRecordLine(std::string_view text,
                         const std::function<Status(std::string_view line)>& visit) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    DR_RETURN_IF_ERROR(visit(line));
  }
  return Status::OK();
}

Result<Item> DecodeItemMember(const Json& record) {
  const auto it = record.find("Item");
  if (it == record.end() || !it->is_object()) {
    return Status::Validation("The line has no \"Item\" map");
  }
  for (const auto& [name, value] : it->items()) {
    DR_RETURN_IF_ERROR(CheckAttributeValueTypes(value));
  }
  return DecodeItem(*it);
}

Result<std::string> ReadInputFile(const std::string& path, InputCompression compression) {
  DR_ASSIGN_OR_RETURN(std::unique_ptr<InputStream> in, InputStream::Open(path, compression));
  return ReadRest(*in);
}

Status VisitImportRecords(std::string_view text, const ImportTableDescription& desc,
                          const ImportRecordVisitor& visit) {
  if (desc.input_format == InputFormat::kCsv) return VisitCsv(text, desc, visit);
  if (desc.input_format == InputFormat::kIon) return VisitIonRecords(text, visit);
  return VisitJsonLines(text, visit);
}

Status VisitImportFile(const std::string& path, const ImportTableDescription& desc,
                       const ImportRecordVisitor& visit) {
  if (desc.input_format != InputFormat::kDynamoDbJson) {
    DR_ASSIGN_OR_RETURN(std::string text, ReadInputFile(path, desc.compression));
    return VisitImportRecords(text, desc, visit);
  }
  // JSON Lines: one line at a time, the file never whole.
  DR_ASSIGN_OR_RETURN(std::unique_ptr<InputStream> in, InputStream::Open(path, desc.compression));
  LineReader lines(std::move(in));
  std::string_view line;
  while (lines.Next(&line)) DR_RETURN_IF_ERROR(visit(DecodeJsonLine(line)));
  return lines.status();
}

}  // namespace dynarock::api
