// tools/http/aws_credentials.cc

#include "tools/http/aws_credentials.h"

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace dynarock::tools::http {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) {
    s.remove_prefix(1);
  }
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) {
    s.remove_suffix(1);
  }
  return s;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The file's text; empty when it cannot be read (a missing file is normal).
std::string ReadFileOrEmpty(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string EnvOr(const EnvLookup& env, std::string_view name) {
  std::optional<std::string> v = env(name);
  return v ? *v : "";
}

std::string ProfileName(const EnvLookup& env, std::string_view profile) {
  if (!profile.empty()) return std::string(profile);
  std::string p = EnvOr(env, "AWS_PROFILE");
  return p.empty() ? "default" : p;
}

// The shared file `variable` names, else ~/.aws/<file>.
std::string AwsFilePath(const EnvLookup& env, std::string_view variable,
                        std::string_view file) {
  std::string path = EnvOr(env, variable);
  if (!path.empty()) return path;
  std::string home = EnvOr(env, "HOME");
  return home.empty() ? "" : home + "/.aws/" + std::string(file);
}

// The profile's section of the config file: "[default]" or
// "[profile NAME]" (the AWS CLI also accepts "[NAME]" for other profiles).
const std::map<std::string, std::string>* ConfigSection(
    const IniSections& config, const std::string& profile) {
  for (const std::string& name :
       {profile == "default" ? std::string("default") : "profile " + profile,
        profile}) {
    auto it = config.find(name);
    if (it != config.end()) return &it->second;
  }
  return nullptr;
}

std::optional<AwsCredentials> FromSection(
    const std::map<std::string, std::string>* section, std::string source) {
  if (section == nullptr) return std::nullopt;
  auto key = section->find("aws_access_key_id");
  auto secret = section->find("aws_secret_access_key");
  if (key == section->end() || secret == section->end()) return std::nullopt;
  AwsCredentials c;
  c.access_key_id = key->second;
  c.secret_access_key = secret->second;
  if (auto token = section->find("aws_session_token"); token != section->end()) {
    c.session_token = token->second;
  }
  c.source = std::move(source);
  return c;
}

}  // namespace

EnvLookup ProcessEnvironment() {
  return [](std::string_view name) -> std::optional<std::string> {
    const char* v = std::getenv(std::string(name).c_str());
    if (v == nullptr) return std::nullopt;
    return std::string(v);
  };
}

IniSections ParseIni(std::string_view text) {
  IniSections sections;
  std::map<std::string, std::string>* current = nullptr;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = Trim(text.substr(pos, end - pos));
    pos = end + 1;
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    if (line.front() == '[') {
      size_t close = line.find(']');
      if (close == std::string_view::npos) {
        current = nullptr;
        continue;
      }
      current = &sections[std::string(Trim(line.substr(1, close - 1)))];
      continue;
    }
    size_t eq = line.find('=');
    if (current == nullptr || eq == std::string_view::npos) continue;
    (*current)[Lower(Trim(line.substr(0, eq)))] = std::string(Trim(line.substr(eq + 1)));
  }
  return sections;
}

Result<AwsCredentials> ResolveCredentials(const EnvLookup& env,
                                          std::string_view profile_flag) {
  const std::string key = EnvOr(env, "AWS_ACCESS_KEY_ID");
  const std::string secret = EnvOr(env, "AWS_SECRET_ACCESS_KEY");
  if (!key.empty() || !secret.empty()) {
    if (key.empty() || secret.empty()) {
      return Status::Validation(
          "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together");
    }
    AwsCredentials c{key, secret, EnvOr(env, "AWS_SESSION_TOKEN"), "environment"};
    return c;
  }
  const std::string profile = ProfileName(env, profile_flag);
  const std::string credentials_path =
      AwsFilePath(env, "AWS_SHARED_CREDENTIALS_FILE", "credentials");
  if (!credentials_path.empty()) {
    const IniSections file = ParseIni(ReadFileOrEmpty(credentials_path));
    auto it = file.find(profile);
    if (auto c = FromSection(it == file.end() ? nullptr : &it->second,
                             credentials_path + " [" + profile + "]")) {
      return *c;
    }
  }
  const std::string config_path = AwsFilePath(env, "AWS_CONFIG_FILE", "config");
  if (!config_path.empty()) {
    const IniSections file = ParseIni(ReadFileOrEmpty(config_path));
    if (auto c = FromSection(ConfigSection(file, profile),
                             config_path + " [" + profile + "]")) {
      return *c;
    }
  }
  return Status::Validation(
      "no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or "
      "put aws_access_key_id and aws_secret_access_key under [" + profile +
      "] in " + (credentials_path.empty() ? "~/.aws/credentials" : credentials_path));
}

std::string ResolveRegion(const EnvLookup& env, std::string_view profile_flag) {
  for (std::string_view variable : {"AWS_REGION", "AWS_DEFAULT_REGION"}) {
    std::string v = EnvOr(env, variable);
    if (!v.empty()) return v;
  }
  const std::string config_path = AwsFilePath(env, "AWS_CONFIG_FILE", "config");
  if (config_path.empty()) return "";
  const IniSections file = ParseIni(ReadFileOrEmpty(config_path));
  const auto* section = ConfigSection(file, ProfileName(env, profile_flag));
  if (section == nullptr) return "";
  auto it = section->find("region");
  return it == section->end() ? "" : it->second;
}

}  // namespace dynarock::tools::http
