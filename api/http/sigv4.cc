// api/http/sigv4.cc

#include "api/http/sigv4.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>

#include "api/http/header_text.h"

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
  // key/date/region/service/terminator, split without allocating: every
  // request parses one.
  std::array<std::string_view, 5> parts;
  for (size_t i = 0; i < parts.size(); ++i) {
    const size_t slash = credential.find('/');
    if ((slash == std::string_view::npos) != (i == parts.size() - 1)) return false;
    parts[i] = credential.substr(0, slash);
    if (slash != std::string_view::npos) credential.remove_prefix(slash + 1);
  }
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

// --- Strict mode helpers -------------------------------------------------

constexpr std::string_view kAlgorithm = "AWS4-HMAC-SHA256";
constexpr std::string_view kService = "dynamodb";
constexpr std::string_view kTerminator = "aws4_request";

std::string_view TrimSpaces(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::optional<std::string_view> FindHeader(const SignedRequest& request,
                                           std::string_view name) {
  for (const auto& [key, value] : request.headers) {
    if (EqualsIgnoreCase(key, name)) return value;
  }
  return std::nullopt;
}

std::string Hex(const unsigned char* data, size_t n) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * n);
  for (size_t i = 0; i < n; ++i) {
    out += kHex[data[i] >> 4];
    out += kHex[data[i] & 15];
  }
  return out;
}

std::string Hmac(std::string_view key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out,
       &len);
  return std::string(reinterpret_cast<const char*>(out), len);
}

bool IsUnreserved(unsigned char c) {
  return std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~';
}

// RFC 3986 percent-encoding of every byte but the unreserved ones (and '/'
// when `keep_slash`), upper-case hex, as SigV4 wants.
std::string UriEncode(std::string_view s, bool keep_slash) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (IsUnreserved(c) || (keep_slash && c == '/')) {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string UriDecode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() &&
        HexValue(s[i + 1]) >= 0 && HexValue(s[i + 2]) >= 0) {
      out += static_cast<char>(HexValue(s[i + 1]) * 16 + HexValue(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// The path with "." and ".." segments and empty segments removed (what
// every SDK signs for services other than S3), then encoded once more.
std::string CanonicalUri(std::string_view path) {
  if (path.empty()) return "/";
  std::vector<std::string_view> out;
  for (std::string_view segment : Split(path, '/')) {
    if (segment.empty() || segment == ".") continue;
    if (segment == "..") {
      if (!out.empty()) out.pop_back();
      continue;
    }
    out.push_back(segment);
  }
  std::string normalized = path.front() == '/' ? "/" : "";
  for (size_t i = 0; i < out.size(); ++i) {
    if (i > 0) normalized += '/';
    normalized += out[i];
  }
  if (path.back() == '/' && !out.empty()) normalized += '/';
  return UriEncode(normalized, /*keep_slash=*/true);
}

std::string CanonicalQuery(std::string_view query) {
  if (query.empty()) return "";
  std::vector<std::pair<std::string, std::string>> params;
  for (std::string_view pair : Split(query, '&')) {
    if (pair.empty()) continue;
    size_t eq = pair.find('=');
    std::string_view key = pair.substr(0, eq);
    std::string_view value =
        eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1);
    params.emplace_back(UriEncode(UriDecode(key), false),
                        UriEncode(UriDecode(value), false));
  }
  std::sort(params.begin(), params.end());
  std::string out;
  for (const auto& [key, value] : params) {
    if (!out.empty()) out += '&';
    out += key;
    out += '=';
    out += value;
  }
  return out;
}

// A header value as signed: trimmed, inner runs of spaces made one.
void AppendCanonicalValue(std::string_view value, std::string* out) {
  value = TrimSpaces(value);
  bool space = false;
  for (char c : value) {
    if (c == ' ' || c == '\t') {
      space = true;
      continue;
    }
    if (space) *out += ' ';
    space = false;
    *out += c;
  }
}

// "20150830T123600Z" -> seconds since the epoch; nullopt if not that form.
std::optional<int64_t> ParseAmzDate(std::string_view d) {
  if (d.size() != 16 || d[8] != 'T' || d[15] != 'Z') return std::nullopt;
  auto num = [&](size_t pos, size_t len) -> int64_t {
    int64_t v = 0;
    for (size_t i = pos; i < pos + len; ++i) {
      if (!std::isdigit(static_cast<unsigned char>(d[i]))) return -1;
      v = v * 10 + (d[i] - '0');
    }
    return v;
  };
  int64_t y = num(0, 4), m = num(4, 2), day = num(6, 2);
  int64_t hh = num(9, 2), mm = num(11, 2), ss = num(13, 2);
  if (y < 0 || m < 1 || m > 12 || day < 1 || day > 31 || hh < 0 || hh > 23 ||
      mm < 0 || mm > 59 || ss < 0 || ss > 60) {
    return std::nullopt;
  }
  // Days from the civil date (Howard Hinnant's algorithm).
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const int64_t days = era * 146097 + doe - 719468;
  return days * 86400 + hh * 3600 + mm * 60 + ss;
}

std::string FormatAmzDate(int64_t t) {
  int64_t days = t >= 0 ? t / 86400 : (t - 86399) / 86400;
  int64_t secs = t - days * 86400;
  // Civil date from days (Howard Hinnant's algorithm).
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const int64_t doe = days - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t y = yoe + era * 400;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t d = doy - (153 * mp + 2) / 5 + 1;
  const int64_t m = mp + (mp < 10 ? 3 : -9);
  y += m <= 2;
  char buf[160];
  std::snprintf(buf, sizeof(buf), "%04lld%02lld%02lldT%02lld%02lld%02lldZ",
                static_cast<long long>(y), static_cast<long long>(m),
                static_cast<long long>(d), static_cast<long long>(secs / 3600),
                static_cast<long long>(secs / 60 % 60),
                static_cast<long long>(secs % 60));
  return buf;
}

// The entries of an "AWS4-..." header, as DynamoDB reads them.
struct AuthEntries {
  std::string_view algorithm;
  std::string_view credential;
  std::string_view signed_headers;
  std::string_view signature;
};

AuthEntries ReadEntries(std::string_view header) {
  AuthEntries entries;
  header = TrimSpaces(header);
  size_t space = header.find_first_of(" \t");
  entries.algorithm = header.substr(0, space);
  if (space == std::string_view::npos) return entries;
  std::string_view rest = header.substr(space);
  size_t i = 0;
  while (i < rest.size()) {
    while (i < rest.size() && IsSeparator(rest[i])) ++i;
    size_t start = i;
    while (i < rest.size() && !IsSeparator(rest[i])) ++i;
    std::string_view entry = rest.substr(start, i - start);
    size_t eq = entry.find('=');
    if (eq == std::string_view::npos) continue;
    std::string_view key = entry.substr(0, eq);
    std::string_view value = entry.substr(eq + 1);
    if (key == "Credential") entries.credential = value;
    if (key == "SignedHeaders") entries.signed_headers = value;
    if (key == "Signature") entries.signature = value;
  }
  return entries;
}

Status Incomplete(std::string message) {
  return Status(ErrorCode::kIncompleteSignature, std::move(message));
}
Status Invalid(std::string message) {
  return Status(ErrorCode::kInvalidSignature, std::move(message));
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
      auth.signed_headers = Split(value, ';');
      std::erase(auth.signed_headers, std::string_view());
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

Result<SigV4Secrets> ParseSigV4Secrets(std::string_view text) {
  SigV4Secrets secrets;
  std::string pending_key, pending_secret;
  int section_line = 0;
  auto flush = [&]() -> Status {
    if (pending_key.empty() && pending_secret.empty()) return Status::OK();
    if (pending_key.empty() || pending_secret.empty()) {
      return Status(ErrorCode::kValidation,
                    "auth file: the section at line " +
                        std::to_string(section_line) +
                        " needs both aws_access_key_id and "
                        "aws_secret_access_key");
    }
    secrets[pending_key] = pending_secret;
    pending_key.clear();
    pending_secret.clear();
    return Status::OK();
  };
  int line_no = 0;
  for (std::string_view line : Split(text, '\n')) {
    ++line_no;
    line = TrimSpaces(line);
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    if (line.front() == '[') {
      DR_RETURN_IF_ERROR(flush());
      section_line = line_no;
      continue;
    }
    size_t eq = line.find('=');
    if (eq != std::string_view::npos) {
      std::string key = Lower(TrimSpaces(line.substr(0, eq)));
      std::string_view value = TrimSpaces(line.substr(eq + 1));
      if (section_line == 0) section_line = line_no;
      if (key == "aws_access_key_id") {
        if (!pending_key.empty()) DR_RETURN_IF_ERROR(flush());
        pending_key = value;
      } else if (key == "aws_secret_access_key") {
        pending_secret = value;
      }
      continue;  // other settings (region, aws_session_token) are ignored
    }
    size_t sep = line.find_first_of(" \t:");
    std::string_view key = line.substr(0, sep);
    std::string_view secret =
        sep == std::string_view::npos ? std::string_view()
                                      : TrimSpaces(line.substr(sep + 1));
    if (key.empty() || secret.empty() ||
        secret.find_first_of(" \t") != std::string_view::npos) {
      return Status(ErrorCode::kValidation,
                    "auth file: line " + std::to_string(line_no) +
                        " is not 'ACCESS_KEY_ID SECRET_ACCESS_KEY'");
    }
    secrets[std::string(key)] = secret;
  }
  DR_RETURN_IF_ERROR(flush());
  if (secrets.empty()) {
    return Status(ErrorCode::kValidation, "auth file: no credentials in it");
  }
  return secrets;
}

std::string Sha256Hex(std::string_view data) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(),
         digest);
  return Hex(digest, sizeof(digest));
}

std::string CanonicalRequest(const SignedRequest& request,
                             const std::vector<std::string>& signed_headers) {
  std::string_view target = request.target;
  size_t q = target.find('?');
  std::string_view path = target.substr(0, q);
  std::string_view query =
      q == std::string_view::npos ? std::string_view() : target.substr(q + 1);
  std::string out(request.method);
  out += '\n';
  out += CanonicalUri(path);
  out += '\n';
  out += CanonicalQuery(query);
  out += '\n';
  for (const std::string& name : signed_headers) {
    out += Lower(name);
    out += ':';
    bool first = true;
    for (const auto& [key, value] : request.headers) {
      if (!EqualsIgnoreCase(key, name)) continue;
      if (!first) out += ',';
      first = false;
      AppendCanonicalValue(value, &out);
    }
    out += '\n';
  }
  out += '\n';
  for (size_t i = 0; i < signed_headers.size(); ++i) {
    if (i > 0) out += ';';
    out += Lower(signed_headers[i]);
  }
  out += '\n';
  out += Sha256Hex(request.body);
  return out;
}

std::string StringToSign(std::string_view amz_date, std::string_view scope,
                         std::string_view canonical_request) {
  std::string out(kAlgorithm);
  out += '\n';
  out += amz_date;
  out += '\n';
  out += scope;
  out += '\n';
  out += Sha256Hex(canonical_request);
  return out;
}

std::string SignatureOf(std::string_view secret, std::string_view date,
                        std::string_view region, std::string_view service,
                        std::string_view string_to_sign) {
  std::string key = Hmac("AWS4" + std::string(secret), date);
  key = Hmac(key, region);
  key = Hmac(key, service);
  key = Hmac(key, kTerminator);
  std::string signature = Hmac(key, string_to_sign);
  return Hex(reinterpret_cast<const unsigned char*>(signature.data()),
             signature.size());
}

namespace {

// The parts an Authorization header and a date must have: every one that is
// missing, in one IncompleteSignatureException.
Status CheckPartsPresent(std::string_view header, const AuthEntries& entries,
                         const std::optional<std::string_view>& date) {
  std::string missing;
  const std::pair<std::string_view, std::string_view> required[] = {
      {"Credential", entries.credential},
      {"Signature", entries.signature},
      {"SignedHeaders", entries.signed_headers}};
  for (const auto& [name, value] : required) {
    if (value.empty()) {
      missing += "Authorization header requires '";
      missing += name;
      missing += "' parameter. ";
    }
  }
  if (!date) {
    missing +=
        "Authorization header requires existence of either a 'X-Amz-Date' or "
        "a 'Date' header. ";
  }
  if (!missing.empty()) return Incomplete(missing + "Authorization=" + std::string(header));
  return Status::OK();
}

// The signing time `amz_date`, which must be within five minutes of now.
Status CheckSigningTime(std::string_view amz_date, int64_t now_unix_seconds) {
  std::optional<int64_t> signed_at = ParseAmzDate(amz_date);
  if (!signed_at) {
    return Incomplete("Date must be in ISO-8601 'basic format'. Got '" +
                      std::string(amz_date) +
                      "'. See http://en.wikipedia.org/wiki/ISO_8601");
  }
  if (*signed_at < now_unix_seconds - kMaxClockSkewSeconds) {
    return Invalid("Signature expired: " + std::string(amz_date) +
                   " is now earlier than " +
                   FormatAmzDate(now_unix_seconds - kMaxClockSkewSeconds) +
                   " (" + FormatAmzDate(now_unix_seconds) + " - 5 min.)");
  }
  if (*signed_at > now_unix_seconds + kMaxClockSkewSeconds) {
    return Invalid("Signature not yet current: " + std::string(amz_date) +
                   " is still later than " +
                   FormatAmzDate(now_unix_seconds + kMaxClockSkewSeconds) +
                   " (" + FormatAmzDate(now_unix_seconds) + " + 5 min.)");
  }
  return Status::OK();
}

// SignedHeaders as a list; Host must be among them.
Result<std::vector<std::string>> SignedHeaderNames(const AuthEntries& entries) {
  std::vector<std::string> signed_headers;
  bool host_signed = false;
  for (std::string_view h : Split(entries.signed_headers, ';')) {
    if (h.empty()) continue;
    signed_headers.emplace_back(h);
    host_signed = host_signed || EqualsIgnoreCase(h, "host");
  }
  if (!host_signed) {
    return Invalid("'Host' must be a 'SignedHeader' in the AWS Authorization.");
  }
  return signed_headers;
}

// Credential's five parts: key id, date, region, service, terminator.
struct CredentialScope {
  std::string_view credential;  // without trailing slashes
  std::string_view key_id, date, region, service, terminator;
};

Result<CredentialScope> ParseCredential(const AuthEntries& entries) {
  CredentialScope c;
  c.credential = entries.credential;
  while (!c.credential.empty() && c.credential.back() == '/') {
    c.credential.remove_suffix(1);
  }
  std::vector<std::string_view> parts = Split(c.credential, '/');
  if (parts.size() != 5) {
    return Incomplete(
        "Credential must have exactly 5 slash-delimited elements, e.g. "
        "keyid/date/region/service/term, got '" +
        std::string(entries.credential) + "'");
  }
  c.key_id = parts[0];
  c.date = parts[1];
  c.region = parts[2];
  c.service = parts[3];
  c.terminator = parts[4];
  return c;
}

// The scope must name a region, DynamoDB, the terminator and the signing
// date: every one that does not, in one InvalidSignatureException.
Status CheckScope(const CredentialScope& c, std::string_view amz_date) {
  std::string wrong_scope;
  const bool region_ok =
      !c.region.empty() &&
      std::all_of(c.region.begin(), c.region.end(), [](char ch) {
        return std::islower(static_cast<unsigned char>(ch)) ||
               std::isdigit(static_cast<unsigned char>(ch)) || ch == '-';
      });
  if (!region_ok) {
    wrong_scope += "Credential should be scoped to a valid region, not '" +
                   std::string(c.region) + "'. ";
  }
  if (c.service != kService) {
    wrong_scope += "Credential should be scoped to correct service: '" +
                   std::string(kService) + "'. ";
  }
  if (c.terminator != kTerminator) {
    wrong_scope += "Credential should be scoped with a valid terminator: '" +
                   std::string(kTerminator) + "', not '" +
                   std::string(c.terminator) + "'. ";
  }
  if (c.date != amz_date.substr(0, 8)) {
    wrong_scope +=
        "Date in Credential scope does not match YYYYMMDD from ISO-8601 "
        "version of date from HTTP: '" +
        std::string(c.date) + "' != '" + std::string(amz_date.substr(0, 8)) +
        "', from '" + std::string(amz_date) + "'.";
  }
  if (wrong_scope.empty()) return Status::OK();
  while (wrong_scope.back() == ' ') wrong_scope.pop_back();
  return Invalid(wrong_scope);
}

// The signature the request carries against the one `secret` makes,
// compared in constant time.
Status CheckSignature(const SignedRequest& request, std::string_view secret,
                      const CredentialScope& c, const std::vector<std::string>& signed_headers,
                      std::string_view amz_date, std::string_view given) {
  const std::string canonical = CanonicalRequest(request, signed_headers);
  std::string scope_text(c.credential);
  scope_text.erase(0, c.key_id.size() + 1);
  const std::string string_to_sign = StringToSign(amz_date, scope_text, canonical);
  const std::string expected = SignatureOf(secret, c.date, c.region, c.service, string_to_sign);
  if (given.size() != expected.size() ||
      CRYPTO_memcmp(given.data(), expected.data(), expected.size()) != 0) {
    return Invalid(
        "The request signature we calculated does not match the signature "
        "you provided. Check your AWS Secret Access Key and signing method. "
        "Consult the service documentation for details.\n\nThe Canonical "
        "String for this request should have been\n'" +
        canonical + "'\n\nThe String-to-Sign should have been\n'" +
        string_to_sign + "'\n");
  }
  return Status::OK();
}

}  // namespace

Result<CallerIdentity> VerifySigV4(const SignedRequest& request,
                                   const SigV4Secrets& secrets,
                                   int64_t now_unix_seconds) {
  // Messages: DynamoDB's, as mhart/dynalite recorded them against it
  // (index.js), the clock-skew window as DynamoDB answers today (5 min.).
  // The checks run in DynamoDB's order; the first that fails answers.
  std::optional<std::string_view> header = FindHeader(request, "Authorization");
  if (!header || TrimSpaces(*header).substr(0, 5) != "AWS4-") {
    return Status(ErrorCode::kMissingAuthenticationToken,
                  "Request is missing Authentication Token");
  }
  const AuthEntries entries = ReadEntries(*header);
  std::optional<std::string_view> date = FindHeader(request, "X-Amz-Date");
  if (!date) date = FindHeader(request, "Date");
  DR_RETURN_IF_ERROR(CheckPartsPresent(*header, entries, date));
  const std::string_view amz_date = TrimSpaces(*date);
  DR_RETURN_IF_ERROR(CheckSigningTime(amz_date, now_unix_seconds));
  DR_ASSIGN_OR_RETURN(std::vector<std::string> signed_headers, SignedHeaderNames(entries));
  if (entries.algorithm != kAlgorithm) {
    return Incomplete("Unsupported AWS 'algorithm': '" +
                      std::string(entries.algorithm) +
                      "' (only AWS4-HMAC-SHA256 for now). ");
  }
  DR_ASSIGN_OR_RETURN(CredentialScope scope, ParseCredential(entries));
  DR_RETURN_IF_ERROR(CheckScope(scope, amz_date));
  auto secret = secrets.find(scope.key_id);
  if (secret == secrets.end()) {
    return Status(ErrorCode::kUnrecognizedClient,
                  "The security token included in the request is invalid.");
  }
  DR_RETURN_IF_ERROR(
      CheckSignature(request, secret->second, scope, signed_headers, amz_date, entries.signature));
  // Temporary credentials are not supported: there is no STS to issue them.
  if (FindHeader(request, "X-Amz-Security-Token")) {
    return Status(ErrorCode::kUnrecognizedClient,
                  "The security token included in the request is invalid");
  }
  CallerIdentity caller;
  caller.access_key_id = scope.key_id;
  caller.region = scope.region;
  return caller;
}

}  // namespace dynarock::api::http
