#include "api/error.h"

#include "api/json_codec.h"

namespace dynarock::api {

namespace {

// Namespaces of "__type", as DynamoDB sends them: the service frontend's own
// errors are Coral's (recorded by mhart/dynalite's tests against DynamoDB:
// test/connection.js, test/helpers.js; and dynoxide's src/errors.rs), the
// rest are DynamoDB's model.
constexpr std::string_view kDynamoDbNamespace = "com.amazonaws.dynamodb.v20120810#";
constexpr std::string_view kCoralService = "com.amazon.coral.service#";
constexpr std::string_view kCoralValidate = "com.amazon.coral.validate#";
constexpr std::string_view kCoralAvailability = "com.amazon.coral.availability#";

std::string_view NamespaceOf(ErrorCode code) {
  switch (code) {
    case ErrorCode::kValidation:
      return kCoralValidate;
    case ErrorCode::kSerialization:
    case ErrorCode::kUnknownOperation:
    case ErrorCode::kMissingAuthenticationToken:
    case ErrorCode::kIncompleteSignature:
    case ErrorCode::kInvalidSignature:
    case ErrorCode::kUnrecognizedClient:
    case ErrorCode::kAccessDenied:
      return kCoralService;
    case ErrorCode::kThrottling:
      return kCoralAvailability;
    default:
      return kDynamoDbNamespace;
  }
}

bool IsInternal(ErrorCode code) {
  return code == ErrorCode::kInternal || code == ErrorCode::kIOError ||
         code == ErrorCode::kCorruption || code == ErrorCode::kOk;
}

}  // namespace

std::string ErrorType(ErrorCode code) {
  std::string out(NamespaceOf(code));
  // kOk reaching here is a bug upstream; report it as an internal error.
  out += code == ErrorCode::kOk ? "InternalServerError" : ErrorCodeName(code);
  return out;
}

int ErrorHttpStatus(ErrorCode code) {
  if (code == ErrorCode::kServiceUnavailable) return 503;
  return IsInternal(code) ? 500 : 400;
}

Response FormatError(const Status& status) {
  const ErrorCode code = status.code();
  Json body = Json::object();
  body["__type"] = ErrorType(code);
  // SerializationException and TransactionCanceledException spell their
  // message "Message", as DynamoDB's model does.
  if (!status.message().empty()) {
    const bool capital = code == ErrorCode::kSerialization ||
                         code == ErrorCode::kTransactionCanceled;
    body[capital ? "Message" : "message"] = status.message();
  }
  // A cancelled transaction: one reason per action, in action order; a
  // "None" reason has no Message (botocore: e.response['CancellationReasons'],
  // the JS SDK: TransactionCanceledException.CancellationReasons).
  if (!status.cancellation_reasons().empty()) {
    Json reasons = Json::array();
    for (const CancellationReason& r : status.cancellation_reasons()) {
      Json reason{{"Code", r.code}};
      if (!r.message.empty()) reason["Message"] = r.message;
      if (r.item != nullptr) reason["Item"] = EncodeItem(*r.item);
      reasons.push_back(std::move(reason));
    }
    body["CancellationReasons"] = std::move(reasons);
  }
  if (code == ErrorCode::kConditionalCheckFailed && status.item() != nullptr) {
    body["Item"] = EncodeItem(*status.item());
  }
  // Throttle errors say what was throttled and why (API_ThrottlingReason).
  if (!status.throttling_reasons().empty()) {
    Json reasons = Json::array();
    for (const ThrottlingReason& r : status.throttling_reasons()) {
      reasons.push_back(Json{{"reason", r.reason}, {"resource", r.resource}});
    }
    body["ThrottlingReasons"] = std::move(reasons);
  }
  Response response;
  response.http_status = ErrorHttpStatus(code);
  response.body = DumpJson(body);
  return response;
}

}  // namespace dynarock::api
