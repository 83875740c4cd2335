// tests/tools/http/aws_credentials_test.cc
//
// Where the tools find credentials and Region: the environment first, then
// the shared credentials file's profile, then the config file's.

#include "tools/http/aws_credentials.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

namespace dynarock::tools::http {
namespace {

EnvLookup Env(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](std::string_view name) -> std::optional<std::string> {
    auto it = vars.find(std::string(name));
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

class AwsCredentialsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("aws_credentials_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    credentials_ = (dir_ / "credentials").string();
    config_ = (dir_ / "config").string();
    std::ofstream(credentials_) << "# comment\n[default]\naws_access_key_id = AKIDDEFAULT\n"
                                   "aws_secret_access_key = default-secret\n\n"
                                   "[work]\n AWS_Access_Key_Id=AKIDWORK \n"
                                   "aws_secret_access_key=work/secret=\n"
                                   "aws_session_token = TOKEN\n";
    std::ofstream(config_) << "[default]\nregion = eu-west-1\n"
                              "[profile work]\nregion = ap-south-1\n"
                              "[profile cfgonly]\naws_access_key_id = AKIDCFG\n"
                              "aws_secret_access_key = cfg-secret\n";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::map<std::string, std::string> Files() {
    return {{"AWS_SHARED_CREDENTIALS_FILE", credentials_}, {"AWS_CONFIG_FILE", config_}};
  }

  std::filesystem::path dir_;
  std::string credentials_;
  std::string config_;
};

TEST_F(AwsCredentialsTest, EnvironmentComesFirst) {
  auto vars = Files();
  vars["AWS_ACCESS_KEY_ID"] = "AKIDENV";
  vars["AWS_SECRET_ACCESS_KEY"] = "env-secret";
  vars["AWS_SESSION_TOKEN"] = "env-token";
  Result<AwsCredentials> c = ResolveCredentials(Env(vars));
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->access_key_id, "AKIDENV");
  EXPECT_EQ(c->secret_access_key, "env-secret");
  EXPECT_EQ(c->session_token, "env-token");
  EXPECT_EQ(c->source, "environment");

  vars.erase("AWS_SECRET_ACCESS_KEY");
  EXPECT_EQ(ResolveCredentials(Env(vars)).status().message(),
            "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together");
}

TEST_F(AwsCredentialsTest, ProfilesOfTheSharedFiles) {
  auto vars = Files();
  Result<AwsCredentials> c = ResolveCredentials(Env(vars));
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->access_key_id, "AKIDDEFAULT");
  EXPECT_EQ(c->source, credentials_ + " [default]");

  vars["AWS_PROFILE"] = "work";
  c = ResolveCredentials(Env(vars));
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->access_key_id, "AKIDWORK");
  EXPECT_EQ(c->secret_access_key, "work/secret=");  // '=' inside the value
  EXPECT_EQ(c->session_token, "TOKEN");
  EXPECT_EQ(ResolveRegion(Env(vars)), "ap-south-1");

  // A flag beats AWS_PROFILE; keys in the config file's "[profile x]".
  c = ResolveCredentials(Env(vars), "cfgonly");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->access_key_id, "AKIDCFG");
  EXPECT_EQ(c->source, config_ + " [cfgonly]");

  Result<AwsCredentials> none = ResolveCredentials(Env(vars), "absent");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().message(),
            "no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or put "
            "aws_access_key_id and aws_secret_access_key under [absent] in " +
                credentials_);
}

TEST_F(AwsCredentialsTest, RegionOrder) {
  auto vars = Files();
  EXPECT_EQ(ResolveRegion(Env(vars)), "eu-west-1");
  vars["AWS_DEFAULT_REGION"] = "us-west-2";
  EXPECT_EQ(ResolveRegion(Env(vars)), "us-west-2");
  vars["AWS_REGION"] = "sa-east-1";
  EXPECT_EQ(ResolveRegion(Env(vars)), "sa-east-1");
  EXPECT_EQ(ResolveRegion(Env({{"HOME", "/nonexistent"}})), "");
}

TEST(ParseIniTest, SectionsKeysAndNoise) {
  IniSections s = ParseIni("top = ignored\n[a]\nK = v\n; c\n# c\nbad line\n[ b ]\nx= y z \n[broken\nq=1\n");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s["a"]["k"], "v");
  EXPECT_EQ(s["b"]["x"], "y z");
}

}  // namespace
}  // namespace dynarock::tools::http
