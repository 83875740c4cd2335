// tools/http/aws_credentials.h
//
// The credentials and Region a command line tool signs its requests with,
// found where the AWS CLI and SDKs look (in their order):
//   credentials: AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY (+
//     AWS_SESSION_TOKEN), then the profile's section of the shared
//     credentials file (AWS_SHARED_CREDENTIALS_FILE, else
//     ~/.aws/credentials), then of the config file (AWS_CONFIG_FILE, else
//     ~/.aws/config; "[profile NAME]", or "[default]");
//   profile: AWS_PROFILE, else "default";
//   Region: AWS_REGION, then AWS_DEFAULT_REGION, then the profile's
//     `region` in the config file.
// Single sign-on, assumed roles and instance metadata are not read.
//
// Pure functions of the environment they are given; thread-safe.

#ifndef DYNAROCK_TOOLS_HTTP_AWS_CREDENTIALS_H_
#define DYNAROCK_TOOLS_HTTP_AWS_CREDENTIALS_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "engine/status.h"

namespace dynarock::tools::http {

struct AwsCredentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  // empty: none
  // Where they came from, for messages: "environment",
  // "/home/u/.aws/credentials [default]".
  std::string source;
};

// Looks up an environment variable; nullopt when unset. The real one is
// std::getenv; tests pass a map.
using EnvLookup = std::function<std::optional<std::string>(std::string_view)>;
EnvLookup ProcessEnvironment();

// The sections of an INI file such as ~/.aws/credentials: section name ->
// key -> value (keys lower-cased, values trimmed). Lines before any section,
// blank lines and comments ('#', ';') are ignored.
using IniSections = std::map<std::string, std::map<std::string, std::string>>;
IniSections ParseIni(std::string_view text);

// The credentials, per the order above. `profile` (e.g. from --profile)
// overrides AWS_PROFILE when not empty. Errors: kValidation "no AWS
// credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or
// [profile] in <file>" when none are found; kValidation when the
// environment has one of the key pair without the other.
Result<AwsCredentials> ResolveCredentials(const EnvLookup& env,
                                          std::string_view profile = "");

// The Region, per the order above; empty when none is configured.
std::string ResolveRegion(const EnvLookup& env, std::string_view profile = "");

}  // namespace dynarock::tools::http

#endif  // DYNAROCK_TOOLS_HTTP_AWS_CREDENTIALS_H_
