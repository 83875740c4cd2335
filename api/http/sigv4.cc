// api/http/sigv4.cc

#include "api/http/sigv4.h"

namespace dynarock::api::http {
namespace {

bool IsSeparator(char c) {
  return c == ',' || c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// Splits `s` on `sep`, keeping empty pieces.
std::vector<std::string_view> Split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t pos = s.find(sep, start);
    if (pos == std::string_view::npos) {
      parts.push_back(s.substr(start));
      return parts;
    }
    parts.push_back(s.substr(start, pos - start));
    start = pos + 1;
  }
}

// Fills the credential fields of `auth` from "AKID/date/region/service/term";
// false when it does not have that shape.
bool ParseCredential(std::string_view credential, SigV4Authorization* auth) {
  while (!credential.empty() && credential.back() == '/') {
    credential.remove_suffix(1);
  }
  std::vector<std::string_view> parts = Split(credential, '/');
  if (parts.size() != 5) return false;
  if (parts[0].empty() || parts[0].size() > kMaxAccessKeyIdLength) {
    return false;
  }
  if (parts[2].empty() || parts[2].size() > kMaxRegionLength) return false;
  auth->access_key_id = parts[0];
  auth->date = parts[1];
  auth->region = parts[2];
  auth->service = parts[3];
  auth->terminator = parts[4];
  return true;
}

}  // namespace

SigV4ParseResult ParseAuthorization(std::string_view header) {
  SigV4ParseResult result;
  size_t begin = header.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return result;  // kNotSigV4
  header.remove_prefix(begin);
  size_t space = header.find_first_of(" \t");
  std::string_view algorithm = header.substr(0, space);
  if (algorithm.substr(0, 5) != "AWS4-") return result;  // kNotSigV4
  result.error = SigV4Error::kIncomplete;
  if (space == std::string_view::npos) return result;

  SigV4Authorization auth;
  auth.algorithm = algorithm;
  bool have_credential = false;
  std::string_view rest = header.substr(space);
  size_t i = 0;
  while (i < rest.size()) {
    while (i < rest.size() && IsSeparator(rest[i])) ++i;
    size_t start = i;
    while (i < rest.size() && !IsSeparator(rest[i])) ++i;
    std::string_view entry = rest.substr(start, i - start);
    if (entry.empty()) continue;
    size_t eq = entry.find('=');
    if (eq == std::string_view::npos) continue;
    std::string_view key = entry.substr(0, eq);
    std::string_view value = entry.substr(eq + 1);
    if (key == "Credential") {
      if (!ParseCredential(value, &auth)) return result;  // kIncomplete
      have_credential = true;
    } else if (key == "SignedHeaders") {
      auth.signed_headers.clear();
      for (std::string_view h : Split(value, ';')) {
        if (!h.empty()) auth.signed_headers.emplace_back(h);
      }
    } else if (key == "Signature") {
      auth.signature = value;
    }
  }
  if (!have_credential) return result;  // kIncomplete
  result.auth = std::move(auth);
  return result;
}

CallerIdentity CallerFromAuthorization(const SigV4Authorization& auth) {
  CallerIdentity caller;
  caller.access_key_id = auth.access_key_id;
  caller.region = auth.region;
  return caller;
}

}  // namespace dynarock::api::http
