// tests/api/http/protocol_test.cc

#include "api/http/protocol.h"

#include "api/http/content_coding.h"
#include "api/json_codec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <random>
#include <vector>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

namespace dynarock::api::http {
namespace {

using ::testing::HasSubstr;
using ::testing::Optional;
using ::testing::StartsWith;

constexpr std::string_view kAuth =
    "AWS4-HMAC-SHA256 Credential=AKID1/20250101/us-west-2/dynamodb/"
    "aws4_request, SignedHeaders=host, Signature=00";

// Records what the protocol handed over and answers with a fixed body.
struct FakeHandler {
  std::string operation;
  std::string body;
  CallerIdentity caller;
  int calls = 0;

  Handler AsHandler() {
    return [this](std::string_view op, std::string_view json,
                  const CallerIdentity& who) {
      ++calls;
      operation = op;
      body = json;
      caller = who;
      Response r;
      r.body = "{\"TableNames\":[]}";
      return r;
    };
  }
};

HttpRequest Post(std::string_view target, std::string_view body = "{}") {
  HttpRequest req;
  req.method = "POST";
  req.path = "/";
  req.host = "127.0.0.1:8000";
  req.content_type = "application/x-amz-json-1.0";
  req.target = target;
  req.authorization = kAuth;
  req.body = body;
  return req;
}

TEST(ProtocolTest, OperationFromTarget) {
  EXPECT_THAT(OperationFromTarget("DynamoDB_20120810.PutItem"),
              Optional(std::string_view("PutItem")));
  EXPECT_THAT(OperationFromTarget("DynamoDB_20120810.NoSuchOp"),
              Optional(std::string_view("NoSuchOp")));
  for (std::string_view bad :
       {"", "PutItem", "DynamoDB_20120810", "DynamoDB_20120810.",
        "DynamoDB_20111205.PutItem", "dynamodb_20120810.PutItem",
        "DynamoDB_20120810.Put.Item", "DynamoDB_20120810.Put Item",
        "DynamoDB_20120810.PutItem\n", "DynamoDBStreams_20120810.",
        "DynamoDBStreams_20111205.ListStreams", "xDynamoDB_20120810.PutItem"}) {
    EXPECT_EQ(OperationFromTarget(bad), std::nullopt) << bad;
  }
  std::string long_op = "DynamoDB_20120810." + std::string(65, 'A');
  EXPECT_EQ(OperationFromTarget(long_op), std::nullopt);
}

TEST(ProtocolTest, ExtensionTargetsKeepTheirPrefix) {
  EXPECT_THAT(OperationFromTarget("DynamoRock_20251121.WaitForIndexes"),
              Optional(std::string_view("DynamoRock_20251121.WaitForIndexes")));
  EXPECT_EQ(OperationFromTarget("DynamoRock_20251121."), std::nullopt);
  EXPECT_EQ(OperationFromTarget("DynamoRock_20251121.Wait.For"), std::nullopt);
}

TEST(ProtocolTest, StreamsTargetsKeepTheirPrefix) {
  EXPECT_THAT(OperationFromTarget("DynamoDBStreams_20120810.GetRecords"),
              Optional(std::string_view("DynamoDBStreams_20120810.GetRecords")));
  EXPECT_EQ(OperationFromTarget("DynamoDBStreams_20120810.Get.Records"), std::nullopt);
}

TEST(ProtocolTest, Crc32MatchesZlib) {
  EXPECT_EQ(Crc32(""), 0u);
  EXPECT_EQ(Crc32("123456789"), 0xCBF43926u);  // the standard check value
  // What DynamoDB sends with its 404 body (as recorded by dynalite).
  EXPECT_EQ(Crc32("<UnknownOperationException/>\n"), 3552371480u);
  // ISA-L folds 16 to 256 bytes a step: every length up to 600 (each tail
  // and alignment), then larger bodies, against zlib's table.
  std::mt19937 rng(7);
  std::string data(1 << 20, '\0');
  for (char& c : data) c = static_cast<char>(rng());
  auto zlib_crc = [](std::string_view s) {
    return static_cast<uint32_t>(crc32(0L, reinterpret_cast<const Bytef*>(s.data()),
                                       static_cast<uInt>(s.size())));
  };
  for (size_t n = 0; n <= 600; ++n) {
    for (size_t offset : {0, 1, 7}) {
      const std::string_view s(data.data() + offset, n);
      ASSERT_EQ(Crc32(s), zlib_crc(s)) << n << " at " << offset;
    }
  }
  for (size_t n : {4095, 4096, 25600, 65537, 1 << 20}) {
    const std::string_view s(data.data(), n);
    EXPECT_EQ(Crc32(s), zlib_crc(s)) << n;
  }
}

TEST(ProtocolTest, RequestIdsAreDynamoDbShapedAndUnique) {
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    std::string id = NewRequestId();
    ASSERT_EQ(id.size(), 52u);
    for (char c : id) {
      EXPECT_TRUE((c >= '0' && c <= '9') || (c >= 'A' && c <= 'V')) << id;
    }
    EXPECT_TRUE(seen.insert(id).second);
  }
}

TEST(ProtocolTest, PostCallsTheHandlerWithOperationBodyAndCaller) {
  FakeHandler fake;
  HttpResponse r = HandleRequest(
      Post("DynamoDB_20120810.ListTables", "{\"Limit\":3}"), fake.AsHandler());
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(fake.calls, 1);
  EXPECT_EQ(fake.operation, "ListTables");
  EXPECT_EQ(fake.body, "{\"Limit\":3}");
  EXPECT_EQ(fake.caller.access_key_id, "AKID1");
  EXPECT_EQ(fake.caller.region, "us-west-2");
  EXPECT_EQ(r.body, "{\"TableNames\":[]}");
  EXPECT_THAT(r.Header("Content-Type"),
              Optional(std::string_view("application/x-amz-json-1.0")));
  EXPECT_THAT(r.Header("x-amz-crc32"),
              Optional(std::string_view(std::to_string(Crc32(r.body)))));
  ASSERT_TRUE(r.Header("x-amzn-RequestId").has_value());
  EXPECT_EQ(r.Header("x-amzn-RequestId")->size(), 52u);
}

TEST(ProtocolTest, HandlerStatusAndBodyPassThrough) {
  Handler handler = [](std::string_view, std::string_view,
                       const CallerIdentity&) {
    Response r;
    r.http_status = 400;
    r.body = "{\"__type\":\"x#ValidationException\",\"message\":\"m\"}";
    return r;
  };
  HttpResponse r = HandleRequest(Post("DynamoDB_20120810.PutItem"), handler);
  EXPECT_EQ(r.status, 400);
  EXPECT_THAT(r.body, HasSubstr("ValidationException"));
  EXPECT_THAT(r.Header("x-amz-crc32"),
              Optional(std::string_view(std::to_string(Crc32(r.body)))));
}

TEST(ProtocolTest, AcceptsJsonContentTypes) {
  for (std::string_view ct :
       {"application/x-amz-json-1.0", "application/json",
        "Application/X-Amz-Json-1.0; charset=utf-8"}) {
    FakeHandler fake;
    HttpRequest req = Post("DynamoDB_20120810.ListTables");
    req.content_type = ct;
    HttpResponse r = HandleRequest(req, fake.AsHandler());
    EXPECT_EQ(r.status, 200) << ct;
    EXPECT_EQ(fake.calls, 1) << ct;
  }
  // No Content-Type is fine for an empty body only.
  FakeHandler fake;
  HttpRequest req = Post("DynamoDB_20120810.ListTables", "");
  req.content_type = std::nullopt;
  EXPECT_EQ(HandleRequest(req, fake.AsHandler()).status, 200);
}

TEST(ProtocolTest, AnswersInTheJsonVersionAsked) {
  FakeHandler fake;
  HttpRequest req = Post("DynamoDB_20120810.ListTables");
  EXPECT_THAT(HandleRequest(req, fake.AsHandler()).Header("Content-Type"),
              Optional(std::string_view("application/x-amz-json-1.0")));
  req.content_type = "application/json";
  EXPECT_THAT(HandleRequest(req, fake.AsHandler()).Header("Content-Type"),
              Optional(std::string_view("application/json")));
}

TEST(ProtocolTest, OtherContentTypesAreNotOperations) {
  // application/x-amz-json-1.1 too, as DynamoDB (dynalite's connection.js).
  for (std::string_view ct :
       {"application/x-www-form-urlencoded", "application/x-amz-json-1.1",
        "application/jsonasdf"}) {
    FakeHandler fake;
    HttpRequest req = Post("DynamoDB_20120810.ListTables");
    req.content_type = ct;
    HttpResponse r = HandleRequest(req, fake.AsHandler());
    EXPECT_EQ(r.status, 404) << ct;
    EXPECT_EQ(r.body, "<UnknownOperationException/>\n");
    EXPECT_THAT(r.Header("x-amz-crc32"),
                Optional(std::string_view("3552371480")));
    EXPECT_EQ(fake.calls, 0);
  }
  // An empty body needs no JSON type; the answer is then application/json.
  FakeHandler fake;
  HttpRequest req = Post("DynamoDB_20120810.ListTables", "");
  req.content_type = "application/x-amz-json-1.1";
  HttpResponse r = HandleRequest(req, fake.AsHandler());
  EXPECT_EQ(r.status, 200);
  EXPECT_THAT(r.Header("Content-Type"),
              Optional(std::string_view("application/json")));
}

TEST(ProtocolTest, OnlyTheRootPathServesOperations) {
  FakeHandler fake;
  HttpRequest req = Post("DynamoDB_20120810.ListTables");
  req.path = "/?X-Amz-Date=20250101T000000Z";
  EXPECT_EQ(HandleRequest(req, fake.AsHandler()).status, 200);
  for (std::string_view path : {"/garbage", "//", "/index.htm?x=1"}) {
    req.path = path;
    EXPECT_EQ(HandleRequest(req, fake.AsHandler()).status, 404) << path;
  }
  EXPECT_EQ(fake.calls, 1);
}

TEST(ProtocolTest, MissingOrGarbledTargetIsUnknownOperation) {
  for (std::optional<std::string_view> target :
       {std::optional<std::string_view>(), std::optional<std::string_view>(""),
        std::optional<std::string_view>("ListTables"),
        std::optional<std::string_view>("DynamoDB_20120810."),
        std::optional<std::string_view>("\xff\xfe garbage")}) {
    FakeHandler fake;
    HttpRequest req = Post("");
    req.target = target;
    HttpResponse r = HandleRequest(req, fake.AsHandler());
    EXPECT_EQ(r.status, 400);
    EXPECT_THAT(r.body, HasSubstr("#UnknownOperationException"));
    EXPECT_EQ(fake.calls, 0);
  }
}

TEST(ProtocolTest, UnsignedRequestsAreAnonymous) {
  FakeHandler fake;
  HttpRequest req = Post("DynamoDB_20120810.ListTables");
  req.authorization = std::nullopt;
  EXPECT_EQ(HandleRequest(req, fake.AsHandler()).status, 200);
  EXPECT_EQ(fake.calls, 1);
  EXPECT_TRUE(fake.caller.access_key_id.empty());
  EXPECT_TRUE(fake.caller.region.empty());
}

TEST(ProtocolTest, UnusableAuthorizationIsMissingAuthenticationToken) {
  for (std::string_view auth : {"", "Basic abc", "AWS4"}) {
    FakeHandler fake;
    HttpRequest req = Post("DynamoDB_20120810.ListTables");
    req.authorization = auth;
    HttpResponse r = HandleRequest(req, fake.AsHandler());
    EXPECT_EQ(r.status, 400) << auth;
    EXPECT_THAT(r.body, HasSubstr("#MissingAuthenticationToken")) << auth;
    EXPECT_EQ(fake.calls, 0);
  }
}

TEST(ProtocolTest, IncompleteSigV4IsIncompleteSignature) {
  for (std::string_view auth :
       {"AWS4-", "AWS4-HMAC-SHA256 Signature=1", "AWS4-HMAC-SHA256 Credential=a/b"}) {
    FakeHandler fake;
    HttpRequest req = Post("DynamoDB_20120810.ListTables");
    req.authorization = auth;
    HttpResponse r = HandleRequest(req, fake.AsHandler());
    EXPECT_EQ(r.status, 400) << auth;
    EXPECT_THAT(r.body, HasSubstr("#IncompleteSignatureException")) << auth;
    EXPECT_EQ(fake.calls, 0);
  }
}

TEST(ProtocolTest, BodyThatIsNotJsonComesBeforeTargetAndAuthorization) {
  FakeHandler fake;
  HttpRequest req = Post("NotATarget", "not json");
  req.authorization = "Basic abc";
  HttpResponse r = HandleRequest(req, fake.AsHandler());
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.body,
            "{\"__type\":\"com.amazon.coral.service#SerializationException\"}");
  // A well-formed body with a bad target: the target's error.
  req.body = "{}";
  EXPECT_THAT(HandleRequest(req, fake.AsHandler()).body,
              HasSubstr("#UnknownOperationException"));
  EXPECT_EQ(fake.calls, 0);
}

TEST(ProtocolTest, ErrorsAnswerInTheRequestsMediaType) {
  FakeHandler fake;
  HttpRequest req = Post("Bad");
  req.content_type = "application/json";
  EXPECT_THAT(HandleRequest(req, fake.AsHandler()).Header("Content-Type"),
              Optional(std::string_view("application/json")));
  // No Content-Type and no body: application/json, as DynamoDB.
  req.content_type = std::nullopt;
  req.body = "";
  HttpResponse r = HandleRequest(req, fake.AsHandler());
  EXPECT_EQ(r.status, 400);
  EXPECT_THAT(r.Header("Content-Type"),
              Optional(std::string_view("application/json")));
}

TEST(ProtocolTest, BodyWithoutContentTypeIsNotAnOperation) {
  FakeHandler fake;
  HttpRequest req = Post("DynamoDB_20120810.ListTables", "{}");
  req.content_type = std::nullopt;
  HttpResponse r = HandleRequest(req, fake.AsHandler());
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.body, "<UnknownOperationException/>\n");
  EXPECT_EQ(fake.calls, 0);
}

TEST(ProtocolTest, HandlerExceptionsBecomeInternalServerError) {
  Handler handler = [](std::string_view, std::string_view,
                       const CallerIdentity&) -> Response {
    throw std::runtime_error("boom");
  };
  HttpResponse r = HandleRequest(Post("DynamoDB_20120810.GetItem"), handler);
  EXPECT_EQ(r.status, 500);
  EXPECT_THAT(r.body, HasSubstr("InternalServerError"));
}

TEST(ProtocolTest, GetIsAHealthCheck) {
  FakeHandler fake;
  HttpRequest req;
  req.method = "GET";
  req.path = "/";
  req.host = "localhost:8000";
  HttpResponse r = HandleRequest(req, fake.AsHandler());
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "healthy: localhost:8000 ");
  EXPECT_EQ(r.Header("x-amzn-RequestId")->size(), 52u);
  req.host = "dynamodb.us-east-1.amazonaws.com";
  EXPECT_EQ(HandleRequest(req, fake.AsHandler()).body,
            "healthy: dynamodb.us-east-1.amazonaws.com ");
  req.host = std::nullopt;
  EXPECT_EQ(HandleRequest(req, fake.AsHandler()).body,
            "healthy: dynamodb.us-east-1.amazonaws.com ");
  req.path = "/?a=b";
  EXPECT_EQ(HandleRequest(req, fake.AsHandler()).status, 200);
  EXPECT_EQ(fake.calls, 0);
}

TEST(ProtocolTest, HealthCheckIsOnlyAtTheRoot) {
  FakeHandler fake;
  HttpRequest req;
  req.method = "GET";
  req.host = "localhost:8000";
  for (std::string_view path : {"/abc", "/-", "/index.htm"}) {
    req.path = path;
    HttpResponse r = HandleRequest(req, fake.AsHandler());
    EXPECT_EQ(r.status, 404) << path;
    EXPECT_EQ(r.body, "<UnknownOperationException/>\n");
  }
}

TEST(ProtocolTest, OtherMethodsAreNotOperations) {
  FakeHandler fake;
  HttpRequest req = Post("DynamoDB_20120810.ListTables");
  req.method = "PUT";
  EXPECT_EQ(HandleRequest(req, fake.AsHandler()).status, 404);
  req.method = "OPTIONS";  // without Origin: not a CORS preflight
  EXPECT_EQ(HandleRequest(req, fake.AsHandler()).status, 404);
  EXPECT_EQ(fake.calls, 0);
}

TEST(ProtocolTest, CorsPreflightEchoesWhatWasRequested) {
  FakeHandler fake;
  HttpRequest req;
  req.method = "OPTIONS";
  req.path = "/";
  req.origin = "http://localhost:8001";
  req.access_control_request_headers = "content-type,x-amz-target";
  req.access_control_request_method = "POST";
  HttpResponse r = HandleRequest(req, fake.AsHandler());
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "");
  EXPECT_THAT(r.Header("Access-Control-Allow-Origin"),
              Optional(std::string_view("*")));
  EXPECT_THAT(r.Header("Access-Control-Allow-Headers"),
              Optional(std::string_view("content-type,x-amz-target")));
  EXPECT_THAT(r.Header("Access-Control-Allow-Methods"),
              Optional(std::string_view("POST")));
  EXPECT_THAT(r.Header("Access-Control-Max-Age"),
              Optional(std::string_view("172800")));
  EXPECT_THAT(r.Header("Access-Control-Expose-Headers"),
              Optional(std::string_view(
                  "x-amzn-RequestId,x-amzn-ErrorType,x-amzn-ErrorMessage,Date")));
  EXPECT_EQ(r.Header("x-amzn-RequestId")->size(), 52u);
  // Nothing requested: nothing allowed beyond the origin.
  req.access_control_request_headers = std::nullopt;
  req.access_control_request_method = std::nullopt;
  r = HandleRequest(req, fake.AsHandler());
  EXPECT_EQ(r.Header("Access-Control-Allow-Headers"), std::nullopt);
  EXPECT_EQ(r.Header("Access-Control-Allow-Methods"), std::nullopt);
  EXPECT_EQ(fake.calls, 0);
}

TEST(ProtocolTest, CorsHeadersOnEveryResponseWithAnOrigin) {
  FakeHandler fake;
  HttpRequest post = Post("DynamoDB_20120810.ListTables");
  post.origin = "http://localhost:8001";
  post.access_control_request_method = "POST";
  HttpRequest bad = Post("Nope");
  bad.origin = post.origin;
  HttpRequest get;
  get.method = "GET";
  get.origin = post.origin;
  for (const HttpRequest& req : {post, bad, get}) {
    HttpResponse r = HandleRequest(req, fake.AsHandler());
    EXPECT_THAT(r.Header("Access-Control-Allow-Origin"),
                Optional(std::string_view("*")));
    EXPECT_TRUE(r.Header("Access-Control-Expose-Headers").has_value());
    // Only a preflight says how long it may be cached and what is allowed.
    EXPECT_EQ(r.Header("Access-Control-Max-Age"), std::nullopt);
    EXPECT_EQ(r.Header("Access-Control-Allow-Methods"), std::nullopt);
  }
  HttpResponse plain =
      HandleRequest(Post("DynamoDB_20120810.ListTables"), fake.AsHandler());
  EXPECT_EQ(plain.Header("Access-Control-Allow-Origin"), std::nullopt);
  EXPECT_EQ(plain.Header("Access-Control-Expose-Headers"), std::nullopt);
}

TEST(ProtocolTest, EarlyRejections) {
  HttpResponse too_large = PayloadTooLargeResponse();
  EXPECT_EQ(too_large.status, 413);
  EXPECT_TRUE(too_large.chunked);
  EXPECT_THAT(too_large.Header("x-amz-crc32"), Optional(std::string_view("0")));
  EXPECT_TRUE(too_large.Header("x-amzn-RequestId").has_value());
  EXPECT_EQ(BadHttpRequestResponse().status, 400);
}

// --- Compressed requests and responses ---------------------------------

std::string Gzip(std::string_view data) {
  return *EncodeBody(ContentCoding::kGzip, data);
}

TEST(ProtocolTest, CompressedRequestsAreDecodedForTheHandler) {
  const std::string json = R"({"TableName":"t"})";
  for (auto [name, coding] : {std::pair{"gzip", ContentCoding::kGzip},
                              std::pair{"deflate", ContentCoding::kDeflate}}) {
    FakeHandler fake;
    const std::string sent = *EncodeBody(coding, json);
    HttpRequest req = Post("DynamoDB_20120810.DescribeTable", sent);
    req.content_encoding = name;
    HttpResponse r = HandleRequest(req, fake.AsHandler());
    EXPECT_EQ(r.status, 200) << name;
    EXPECT_EQ(fake.body, json) << name;
  }
}

TEST(ProtocolTest, UndecodableBodiesAreInternalServerErrors) {
  // DynamoDB's answers (alternator's test_compressed_request.py): 500 for
  // an unknown coding, for data that is not of the coding, and for an
  // empty body said to be compressed.
  const std::string json = R"({"TableName":"t"})";
  const std::string gz = Gzip(json);
  const std::vector<std::pair<std::string_view, std::string>> cases = {
      {"garbage", json},       {"gzip", json},
      {"deflate", json},       {"gzip", ""},
      {"deflate", ""},         {"gzip", gz.substr(0, gz.size() - 1)},
  };
  for (const auto& [coding, body] : cases) {
    FakeHandler fake;
    HttpRequest req = Post("DynamoDB_20120810.PutItem", body);
    req.content_encoding = coding;
    HttpResponse r = HandleRequest(req, fake.AsHandler());
    EXPECT_EQ(r.status, 500) << coding << " " << body.size();
    EXPECT_THAT(r.body, HasSubstr("#InternalServerError"));
    EXPECT_EQ(fake.calls, 0);
  }
}

TEST(ProtocolTest, DecodedBodyPastTheLimitIs413) {
  FakeHandler fake;
  const std::string bomb = Gzip("{" + std::string(20 << 20, ' ') + "}");
  HttpRequest req = Post("DynamoDB_20120810.PutItem", bomb);
  req.content_encoding = "gzip";
  HttpResponse r = HandleRequest(req, fake.AsHandler());
  EXPECT_EQ(r.status, 413);
  EXPECT_TRUE(r.chunked);
  EXPECT_EQ(fake.calls, 0);
  // The server's budget refuses: 503, which SDKs retry.
  req.max_decoded_bytes = 64 << 20;
  req.reserve_decoded = [](size_t n) { return n <= (1 << 20); };
  r = HandleRequest(req, fake.AsHandler());
  EXPECT_EQ(r.status, 503);
  EXPECT_THAT(r.body, HasSubstr("ServiceUnavailable"));
  EXPECT_EQ(fake.calls, 0);
}

TEST(ProtocolTest, SignatureCoversTheBodyAsSent) {
  // Strict mode checks the payload hash of the compressed bytes: a request
  // signed over the compressed body passes the body check (and then fails
  // only for its made-up signature).
  ProtocolOptions options;
  options.secrets = std::make_shared<SigV4Secrets>(SigV4Secrets{{"AKID1", "s"}});
  options.now_unix_seconds = [] { return int64_t{1735689600}; };
  const std::string gz = Gzip("{}");
  HttpRequest req = Post("DynamoDB_20120810.ListTables", gz);
  req.content_encoding = "gzip";
  req.request_target = "/";
  req.all_headers = {{"Host", "127.0.0.1:8000"},
                     {"X-Amz-Date", "20250101T000000Z"},
                     {"Authorization", kAuth}};
  FakeHandler fake;
  HttpResponse r = HandleRequest(req, fake.AsHandler(), options);
  EXPECT_EQ(r.status, 400);
  EXPECT_THAT(r.body, HasSubstr("InvalidSignatureException"));
  // The canonical request (in the message) hashes the compressed bytes.
  EXPECT_THAT(r.body, HasSubstr(Sha256Hex(gz)));
}

std::string Decompress(const HttpResponse& r) {
  const std::optional<std::string_view> coding = r.Header("Content-Encoding");
  if (!coding) return r.body;
  return DecodeBody(*ParseContentEncoding(*coding), r.body, 1 << 30).body;
}

Handler Answering(std::string body) {
  return [body](std::string_view, std::string_view, const CallerIdentity&) {
    Response r;
    r.body = body;
    return r;
  };
}

TEST(ProtocolTest, LargeAnswersAreCompressedAsAccepted) {
  const std::string big = "{\"x\":\"" + std::string(5000, 'x') + "\"}";
  HttpRequest req = Post("DynamoDB_20120810.GetItem");
  req.accept_encoding = "gzip";
  HttpResponse r = HandleRequest(req, Answering(big));
  EXPECT_THAT(r.Header("Content-Encoding"), Optional(std::string_view("gzip")));
  EXPECT_LT(r.body.size(), 200u);
  EXPECT_EQ(Decompress(r), big);
  // x-amz-crc32 is of the bytes sent, as DynamoDB's (SDKs check it first).
  EXPECT_THAT(r.Header("x-amz-crc32"),
              Optional(std::string_view(std::to_string(Crc32(r.body)))));
  EXPECT_FALSE(r.chunked);

  req.accept_encoding = "deflate";
  r = HandleRequest(req, Answering(big));
  EXPECT_THAT(r.Header("Content-Encoding"),
              Optional(std::string_view("deflate")));
  EXPECT_EQ(Decompress(r), big);

  // Not asked, or too small: as is.
  req.accept_encoding = "";
  EXPECT_EQ(HandleRequest(req, Answering(big)).body, big);
  req.accept_encoding = "gzip";
  r = HandleRequest(req, Answering("{}"));
  EXPECT_EQ(r.Header("Content-Encoding"), std::nullopt);
  EXPECT_EQ(r.body, "{}");
}

TEST(ProtocolTest, HugeAnswersAreChunked) {
  const std::string huge =
      "{\"x\":\"" + std::string(kChunkedResponseBytes, 'y') + "\"}";
  HttpRequest req = Post("DynamoDB_20120810.Query");
  EXPECT_TRUE(HandleRequest(req, Answering(huge)).chunked);
  req.accept_encoding = "gzip";
  HttpResponse r = HandleRequest(req, Answering(huge));
  EXPECT_TRUE(r.chunked);
  EXPECT_EQ(Decompress(r), huge);
  EXPECT_FALSE(HandleRequest(req, Answering("{}")).chunked);
}

HttpRequest GetMetrics() {
  HttpRequest req;
  req.method = "GET";
  req.path = "/metrics";
  req.host = "127.0.0.1:8000";
  return req;
}

ProtocolOptions WithMetrics() {
  ProtocolOptions options;
  options.metrics = [] { return std::string("dynarock_metrics_tables 0\n"); };
  return options;
}

TEST(ProtocolTest, MetricsServedToLoopbackPeersAsPrometheusText) {
  FakeHandler fake;
  HttpResponse r = HandleRequest(GetMetrics(), fake.AsHandler(), WithMetrics());
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "dynarock_metrics_tables 0\n");
  EXPECT_THAT(r.Header("Content-Type"), Optional(std::string("text/plain; version=0.0.4; charset=utf-8")));
  EXPECT_EQ(fake.calls, 0);
}

TEST(ProtocolTest, MetricsRefusedToOtherPeersUnlessAnyPeer) {
  FakeHandler fake;
  HttpRequest req = GetMetrics();
  req.peer_loopback = false;
  EXPECT_EQ(HandleRequest(req, fake.AsHandler(), WithMetrics()).status, 403);
  ProtocolOptions any = WithMetrics();
  any.metrics_any_peer = true;
  EXPECT_EQ(HandleRequest(req, fake.AsHandler(), any).status, 200);
}

TEST(ProtocolTest, MetricsOffIsNotFound) {
  FakeHandler fake;
  EXPECT_EQ(HandleRequest(GetMetrics(), fake.AsHandler()).status, 404);
}

TEST(ProtocolTest, MetricsInStrictModeNeedASignature) {
  ProtocolOptions options = WithMetrics();
  options.secrets = std::make_shared<SigV4Secrets>(SigV4Secrets{{"AKID1", "s"}});
  options.now_unix_seconds = [] { return int64_t{1735689600}; };
  FakeHandler fake;
  HttpRequest req = GetMetrics();  // unsigned, even from loopback
  req.request_target = "/metrics";
  req.all_headers = {{"Host", "127.0.0.1:8000"}};
  HttpResponse r = HandleRequest(req, fake.AsHandler(), options);
  EXPECT_EQ(r.status, 400);
  EXPECT_THAT(r.body, HasSubstr("MissingAuthenticationToken"));
  // A made-up signature is checked, and fails.
  req.all_headers = {{"Host", "127.0.0.1:8000"},
                     {"X-Amz-Date", "20250101T000000Z"},
                     {"Authorization", kAuth}};
  r = HandleRequest(req, fake.AsHandler(), options);
  EXPECT_EQ(r.status, 400);
  EXPECT_THAT(r.body, HasSubstr("InvalidSignatureException"));
}

HttpRequest GetConsole(std::string_view path) {
  HttpRequest req;
  req.method = "GET";
  req.path = path;
  req.host = "127.0.0.1:8000";
  return req;
}

ProtocolOptions WithConsole(bool write = false) {
  ProtocolOptions options;
  options.console = {console::ConsoleAccess::kLoopback, write};
  return options;
}

TEST(ProtocolTest, ConsoleOffIsNotFound) {
  FakeHandler fake;
  EXPECT_EQ(HandleRequest(GetConsole("/console/"), fake.AsHandler()).status, 404);
  HttpRequest call = Post("DynamoDB_20120810.Scan");
  call.path = "/console/api/";
  EXPECT_EQ(HandleRequest(call, fake.AsHandler()).status, 404);
  EXPECT_EQ(fake.calls, 0);
}

TEST(ProtocolTest, ConsoleServesItsEmbeddedFilesUnderAStrictPolicy) {
  FakeHandler fake;
  HttpResponse page = HandleRequest(GetConsole("/console/"), fake.AsHandler(), WithConsole());
  EXPECT_EQ(page.status, 200);
  EXPECT_THAT(page.body, HasSubstr("<title>dynarock console</title>"));
  EXPECT_THAT(page.Header("Content-Type"), Optional(std::string("text/html; charset=utf-8")));
  EXPECT_THAT(page.Header("Content-Security-Policy"),
              Optional(AllOf(HasSubstr("default-src 'none'"), HasSubstr("script-src 'self'"),
                             HasSubstr("connect-src 'self'"))));
  EXPECT_THAT(page.Header("X-Content-Type-Options"), Optional(std::string("nosniff")));
  HttpResponse script =
      HandleRequest(GetConsole("/console/console.js?v=1"), fake.AsHandler(), WithConsole());
  EXPECT_EQ(script.status, 200);
  EXPECT_THAT(script.Header("Content-Type"), Optional(std::string("text/javascript; charset=utf-8")));
  HttpResponse moved = HandleRequest(GetConsole("/console"), fake.AsHandler(), WithConsole());
  EXPECT_EQ(moved.status, 308);
  EXPECT_THAT(moved.Header("Location"), Optional(std::string("/console/")));
  for (const char* path : {"/console/nope.js", "/console/../README.md", "/console/assets/index.html",
                           "/console/api/", "/console/api/cost"}) {
    EXPECT_EQ(HandleRequest(GetConsole(path), fake.AsHandler(), WithConsole()).status, 404) << path;
  }
  EXPECT_EQ(fake.calls, 0);
}

TEST(ProtocolTest, ConsoleRefusedToOtherPeersUnlessAnyPeer) {
  FakeHandler fake;
  HttpRequest req = GetConsole("/console/");
  req.peer_loopback = false;
  EXPECT_EQ(HandleRequest(req, fake.AsHandler(), WithConsole()).status, 403);
  ProtocolOptions any = WithConsole();
  any.console.access = console::ConsoleAccess::kAnyPeer;
  EXPECT_EQ(HandleRequest(req, fake.AsHandler(), any).status, 200);
}

TEST(ProtocolTest, ConsoleCallsAreReadOnlyUnlessConsoleWrite) {
  HttpRequest scan = Post("DynamoDB_20120810.Scan", R"({"TableName":"t"})");
  scan.path = "/console/api/";
  FakeHandler fake;
  HttpResponse r = HandleRequest(scan, fake.AsHandler(), WithConsole());
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(fake.operation, "Scan");
  EXPECT_EQ(fake.caller.access_key_id, "AKID1");

  HttpRequest put = Post("DynamoDB_20120810.PutItem", R"({"TableName":"t","Item":{}})");
  put.path = "/console/api/";
  FakeHandler refused;
  r = HandleRequest(put, refused.AsHandler(), WithConsole());
  EXPECT_EQ(r.status, 400);
  EXPECT_THAT(r.body, HasSubstr("AccessDeniedException"));
  EXPECT_THAT(r.body, HasSubstr("--console-write"));
  EXPECT_EQ(refused.calls, 0);

  FakeHandler allowed;
  EXPECT_EQ(HandleRequest(put, allowed.AsHandler(), WithConsole(/*write=*/true)).status, 200);
  EXPECT_EQ(allowed.operation, "PutItem");
}

TEST(ProtocolTest, ConsoleInStrictModeServesItsFilesButNeedsSignedCalls) {
  ProtocolOptions options = WithConsole();
  options.secrets = std::make_shared<SigV4Secrets>(SigV4Secrets{{"AKID1", "s"}});
  options.now_unix_seconds = [] { return int64_t{1735689600}; };
  FakeHandler fake;
  HttpRequest page = GetConsole("/console/");
  page.peer_loopback = false;  // signed calls are served to any peer
  EXPECT_EQ(HandleRequest(page, fake.AsHandler(), options).status, 200);
  HttpRequest scan = Post("DynamoDB_20120810.Scan", R"({"TableName":"t"})");
  scan.path = "/console/api/";
  scan.request_target = "/console/api/";
  scan.authorization.reset();
  scan.all_headers = {{"Host", "127.0.0.1:8000"}};
  HttpResponse r = HandleRequest(scan, fake.AsHandler(), options);
  EXPECT_EQ(r.status, 400);
  EXPECT_THAT(r.body, HasSubstr("MissingAuthenticationToken"));
  HttpRequest cost = scan;
  cost.path = "/console/api/cost";
  cost.request_target = "/console/api/cost";
  r = HandleRequest(cost, fake.AsHandler(), options);
  EXPECT_EQ(r.status, 400);
  EXPECT_THAT(r.body, HasSubstr("MissingAuthenticationToken"));
  EXPECT_EQ(fake.calls, 0);
}

// The cost view asks the handler what the caller would see, and prices it.
TEST(ProtocolTest, ConsoleCostPricesTheCallersTable) {
  std::vector<std::string> operations;
  Handler handler = [&](std::string_view op, std::string_view, const CallerIdentity& who) {
    operations.emplace_back(op);
    EXPECT_EQ(who.access_key_id, "AKID1");
    Response r;
    if (op == "DescribeTable") {
      r.body = R"({"Table":{"TableName":"t","CreationDateTime":0,"TableSizeBytes":0}})";
    } else if (op == "DynamoRock_20251121.DescribeCapacity") {
      r.body = R"({"BillingMode":"PAY_PER_REQUEST","Table":{"Total":{"ConsumedWriteUnits":1000000}}})";
    } else {
      r.body = R"({"Mode":"SIMULATED","Now":3600})";
    }
    return r;
  };
  HttpRequest cost = Post("", R"({"TableName":"t"})");
  cost.target.reset();
  cost.path = "/console/api/cost";
  HttpResponse r = HandleRequest(cost, handler, WithConsole());
  ASSERT_EQ(r.status, 200) << r.body;
  const api::Json view = api::Json::parse(r.body);
  EXPECT_EQ(view["PeriodHours"], 1);
  EXPECT_NEAR(view["OnDemand"]["Writes"].get<double>(), 0.625, 1e-12);  // $0.625 per million WRU
  EXPECT_THAT(operations, ::testing::ElementsAre("DescribeTable", "DynamoRock_20251121.DescribeCapacity",
                                                 "DynamoRock_20251121.DescribeClock"));

  Handler missing = [](std::string_view, std::string_view, const CallerIdentity&) {
    Response r;
    r.http_status = 400;
    r.body = R"({"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException"})";
    return r;
  };
  r = HandleRequest(cost, missing, WithConsole());
  EXPECT_EQ(r.status, 400);
  EXPECT_THAT(r.body, HasSubstr("ResourceNotFoundException"));
}

}  // namespace
}  // namespace dynarock::api::http
