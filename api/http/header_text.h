// api/http/header_text.h
//
// The two text rules HTTP header values share (RFC 9110 5.5, 5.6.3): names
// and tokens compare without regard to ASCII case, and optional whitespace
// (spaces and tabs) around a value or list element is not part of it. Used
// by the protocol, the SigV4 reader and the content codings alike.
// Pure functions; thread-safe.

#ifndef DYNAROCK_API_HTTP_HEADER_TEXT_H_
#define DYNAROCK_API_HTTP_HEADER_TEXT_H_

#include <string_view>

namespace dynarock::api::http {

// Whether `a` and `b` are equal but for ASCII case ("GZIP" == "gzip").
bool EqualsIgnoreCase(std::string_view a, std::string_view b);

// `s` without leading and trailing spaces and tabs; a view into `s`.
std::string_view TrimWhitespace(std::string_view s);

}  // namespace dynarock::api::http

#endif  // DYNAROCK_API_HTTP_HEADER_TEXT_H_
