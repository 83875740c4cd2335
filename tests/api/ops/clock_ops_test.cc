// The clock extensions through the in-process Client (api/ops/clock_ops.cc):
// DescribeClock, AdvanceClock and SetClock on the test engine's simulated
// clock, their answers and their errors.

#include <gtest/gtest.h>

#include "tests/api/api_test_util.h"

namespace dynarock::api {
namespace {

using nlohmann::json;

class ClockOpsTest : public ApiTest {};

TEST_F(ClockOpsTest, DescribeAdvanceSet) {
  const double start = static_cast<double>(test_engine_.clock.NowMicros()) / 1e6;
  Reply r = Call("DynamoRock_20251121.DescribeClock", "{}");
  EXPECT_EQ(r.body, (json{{"Mode", "SIMULATED"}, {"Now", start}})) << r;
  r = Call("DynamoRock_20251121.AdvanceClock", R"({"Seconds": 1.5})");
  EXPECT_EQ(r.body, (json{{"Mode", "SIMULATED"}, {"Now", start + 1.5}})) << r;
  EXPECT_EQ(test_engine_.clock.NowMicros(), static_cast<int64_t>(start * 1e6) + 1'500'000);
  r = Call("DynamoRock_20251121.SetClock", json{{"Now", start + 60}});
  EXPECT_EQ(r.body["Now"], start + 60) << r;
}

TEST_F(ClockOpsTest, BadRequests) {
  for (const char* body : {R"({})", R"({"Seconds": 0})", R"({"Seconds": -1})",
                           R"({"Seconds": "5"})", R"({"Seconds": 1e300})",
                           R"({"Seconds": 1, "Extra": 2})"}) {
    Reply r = Call("DynamoRock_20251121.AdvanceClock", body);
    EXPECT_EQ(r.http_status, 400) << body;
    EXPECT_EQ(r.body["__type"], "com.amazon.coral.validate#ValidationException") << body;
  }
  Reply r = Call("DynamoRock_20251121.SetClock", R"({"Now": 1000})");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_NE(r.body["message"].get<std::string>().find("only moves forward"), std::string::npos);
}

TEST_F(ClockOpsTest, TheRealClockDoesNotMove) {
  Result<std::unique_ptr<Engine>> real = Engine::Open(TestEngine::Options());
  ASSERT_TRUE(real.ok()) << real.status().ToString();
  Client client(real->get());
  Response r = client.Call("DynamoRock_20251121.DescribeClock", "{}");
  EXPECT_NE(r.body.find("\"REAL\""), std::string::npos) << r.body;
  r = client.Call("DynamoRock_20251121.AdvanceClock", R"({"Seconds": 1})");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_NE(r.body.find("real clock"), std::string::npos) << r.body;
}

}  // namespace
}  // namespace dynarock::api
