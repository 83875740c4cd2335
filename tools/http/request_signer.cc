// tools/http/request_signer.cc

#include "tools/http/request_signer.h"

#include <ctime>

namespace dynarock::tools::http {

std::string SigV4Authorization(const api::http::SignedRequest& request,
                               const std::vector<std::string>& signed_headers,
                               const SigningKey& key, std::string_view amz_date) {
  const std::string_view date = amz_date.substr(0, 8);
  std::string scope(date);
  scope += '/';
  scope += key.region;
  scope += '/';
  scope += key.service;
  scope += "/aws4_request";
  const std::string string_to_sign = api::http::StringToSign(
      amz_date, scope, api::http::CanonicalRequest(request, signed_headers));
  std::string header = "AWS4-HMAC-SHA256 Credential=";
  header += key.access_key_id;
  header += '/';
  header += scope;
  header += ", SignedHeaders=";
  for (size_t i = 0; i < signed_headers.size(); ++i) {
    if (i > 0) header += ';';
    header += signed_headers[i];
  }
  header += ", Signature=";
  header += api::http::SignatureOf(key.secret_access_key, date, key.region,
                                   key.service, string_to_sign);
  return header;
}

std::string AmzDate(int64_t unix_seconds) {
  std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", &utc);
  return text;
}

}  // namespace dynarock::tools::http
