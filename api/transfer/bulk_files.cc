#include "api/transfer/bulk_files.h"

#include <utility>

#include "api/json_codec.h"
#include "api/ops/decode.h"
#include "api/transfer/import_files.h"
#include "api/transfer/ion_text.h"

namespace dynarock::api {
namespace {

Result<BulkPutRecord> DecodeJsonRecord(std::string_view line) {
  // Nesting is bounded before anything is built (ParseRequestBody).
  DR_ASSIGN_OR_RETURN(Json parsed, ParseRequestBody(line));
  for (const auto& [name, value] : parsed.items()) {
    if (name != "Item" && name != "ConditionExpression" &&
        name != "ExpressionAttributeNames" && name != "ExpressionAttributeValues") {
      return Status::Validation("The record has an unknown member: " + name);
    }
  }
  BulkPutRecord record;
  DR_ASSIGN_OR_RETURN(record.put.item, DecodeItemMember(parsed));
  if (const auto it = parsed.find("ConditionExpression"); it != parsed.end()) {
    if (!it->is_string()) return Status::Validation("ConditionExpression must be a string");
    record.put.condition.condition_expression = it->get<std::string>();
  }
  if (const auto it = parsed.find("ExpressionAttributeNames"); it != parsed.end()) {
    if (!it->is_object()) return Status::Validation("ExpressionAttributeNames must be a map");
    for (const auto& [name, value] : it->items()) {
      if (!value.is_string()) {
        return Status::Validation("ExpressionAttributeNames values must be strings");
      }
    }
    record.put.expression_attribute_names = ops::DecodeNames(parsed);
  }
  if (const auto it = parsed.find("ExpressionAttributeValues"); it != parsed.end()) {
    if (!it->is_object()) return Status::Validation("ExpressionAttributeValues must be a map");
    DR_ASSIGN_OR_RETURN(record.put.expression_attribute_values, ops::DecodeValues(parsed));
  }
  return record;
}

BulkPutRecord RecordOf(Item item) {
  BulkPutRecord record;
  record.put.item = std::move(item);
  return record;
}

class JsonLinesObject final : public BulkObjectReader {
 public:
  explicit JsonLinesObject(std::unique_ptr<InputStream> in) : lines_(std::move(in)) {}
  bool Next(Result<BulkPutRecord>* record) override {
    std::string_view line;
    if (!lines_.Next(&line)) return false;
    *record = DecodeJsonRecord(line);
    return true;
  }
  bool Skip() override {
    std::string_view line;
    return lines_.Next(&line);
  }
  Status status() const override { return lines_.status(); }

 private:
  LineReader lines_;
};

class IonObject final : public BulkObjectReader {
 public:
  explicit IonObject(std::string text) : text_(std::move(text)), records_(text_) {}
  bool Next(Result<BulkPutRecord>* record) override {
    Result<Item> item = Item();
    if (!records_.Next(&item)) return false;
    if (item.ok()) {
      *record = RecordOf(std::move(item).value());
    } else {
      *record = item.status();
    }
    return true;
  }
  bool Skip() override {
    Result<Item> item = Item();
    return records_.Next(&item);
  }
  Status status() const override { return Status::OK(); }

 private:
  const std::string text_;
  IonRecords records_;  // over text_
};

}  // namespace

Result<std::unique_ptr<BulkObjectReader>> NewBulkObjectReader(std::unique_ptr<InputStream> in,
                                                              BulkInputFormat format) {
  if (format != BulkInputFormat::kIon) {
    return std::unique_ptr<BulkObjectReader>(new JsonLinesObject(std::move(in)));
  }
  DR_ASSIGN_OR_RETURN(std::string text, ReadRest(*in));
  return std::unique_ptr<BulkObjectReader>(new IonObject(std::move(text)));
}

Status VisitBulkRecords(std::string_view text, BulkInputFormat format,
                        const BulkRecordVisitor& visit) {
  if (format == BulkInputFormat::kIon) {
    return VisitIonRecords(text, [&](Result<Item> item) -> Status {
      if (!item.ok()) return visit(item.status());
      return visit(RecordOf(std::move(item).value()));
    });
  }
  return ForEachRecordLine(text, [&](std::string_view line) {
    return visit(DecodeJsonRecord(line));
  });
}

std::string BulkReportText(const std::vector<BulkReportEntry>& entries) {
  std::string out;
  for (const BulkReportEntry& e : entries) {
    Json line = {{"ObjectKey", e.object_key},
                 {"RecordNumber", e.record_number},
                 {"OutputType", e.kind == BulkReportEntry::Kind::kConditionCheckFailure
                                    ? "CONDITION_CHECK_FAILURE"
                                    : "ERROR"},
                 {"ErrorCode", e.error_code},
                 {"ErrorMessage", e.error_message}};
    if (e.item) line["Item"] = EncodeItem(*e.item);
    if (e.existing_item) line["ExistingItem"] = EncodeItem(*e.existing_item);
    out += line.dump(-1, ' ', false, Json::error_handler_t::replace);
    out.push_back('\n');
  }
  return out;
}

}  // namespace dynarock::api
