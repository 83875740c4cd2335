// engine/util/base64.h
//
// Standard base64 (RFC 4648, with padding): how DynamoDB's JSON carries
// binary values, and how its messages quote them. The one encoder of the
// project; decoding with DynamoDB's SerializationException messages is the
// API's (api/json_codec.h Base64Decode), which shares kBase64Alphabet.

#ifndef DYNAROCK_ENGINE_UTIL_BASE64_H_
#define DYNAROCK_ENGINE_UTIL_BASE64_H_

#include <string>
#include <string_view>

namespace dynarock {

inline constexpr char kBase64Alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// The padded base64 text of `bytes`.
std::string Base64Encode(std::string_view bytes);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_UTIL_BASE64_H_
