#include "api/transfer/import_files.h"

#include <zlib.h>
#include <zstd.h>

#include <fstream>
#include <sstream>
#include <vector>

#include "api/json_codec.h"
#include "api/transfer/ion_text.h"

namespace dynarock::api {
namespace {

Result<std::string> ReadPlain(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status(ErrorCode::kIOError, "cannot read " + path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

Result<std::string> Gunzip(const std::string& path, std::string_view name) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (f == nullptr) return Status(ErrorCode::kIOError, "cannot read " + path);
  if (gzdirect(f) != 0) {
    gzclose(f);
    return Status::Validation("The file " + std::string(name) + " is not GZIP compressed");
  }
  std::string out;
  std::vector<char> buf(1 << 16);
  int n;
  while ((n = gzread(f, buf.data(), static_cast<unsigned>(buf.size()))) > 0) {
    out.append(buf.data(), static_cast<size_t>(n));
  }
  const bool failed = n < 0;
  gzclose(f);
  if (failed) return Status::Validation("The file " + std::string(name) + " is not valid GZIP");
  return out;
}

Result<std::string> Unzstd(const std::string& path, std::string_view name) {
  DR_ASSIGN_OR_RETURN(std::string compressed, ReadPlain(path));
  ZSTD_DCtx* ctx = ZSTD_createDCtx();
  std::string out;
  std::vector<char> buf(ZSTD_DStreamOutSize());
  ZSTD_inBuffer in{compressed.data(), compressed.size(), 0};
  size_t rc = 1;
  while (in.pos < in.size) {
    ZSTD_outBuffer o{buf.data(), buf.size(), 0};
    rc = ZSTD_decompressStream(ctx, &o, &in);
    if (ZSTD_isError(rc)) break;
    out.append(buf.data(), o.pos);
  }
  ZSTD_freeDCtx(ctx);
  if (ZSTD_isError(rc) || rc != 0) {
    return Status::Validation("The file " + std::string(name) + " is not valid ZSTD");
  }
  return out;
}

Status VisitJsonLines(std::string_view text, const ImportRecordVisitor& visit) {
  return ForEachRecordLine(text, [&](std::string_view line) -> Status {
    Result<Item> record = [&]() -> Result<Item> {
      // Nesting is bounded before anything is built (ParseRequestBody).
      DR_ASSIGN_OR_RETURN(Json parsed, ParseRequestBody(line));
      return DecodeItemMember(parsed);
    }();
    return visit(std::move(record));
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
  const std::string name = path.substr(path.rfind('/') + 1);
  switch (compression) {
    case InputCompression::kGzip:
      return Gunzip(path, name);
    case InputCompression::kZstd:
      return Unzstd(path, name);
    case InputCompression::kNone:
      break;
  }
  return ReadPlain(path);
}

Status VisitImportRecords(std::string_view text, const ImportTableDescription& desc,
                          const ImportRecordVisitor& visit) {
  if (desc.input_format == InputFormat::kCsv) return VisitCsv(text, desc, visit);
  if (desc.input_format == InputFormat::kIon) return VisitIonRecords(text, visit);
  return VisitJsonLines(text, visit);
}

}  // namespace dynarock::api
