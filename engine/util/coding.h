// engine/util/coding.h
//
// Byte-level encoding primitives shared by every on-disk format (item codec,
// key codec, catalog records): varints, fixed-width big-endian integers and
// length-prefixed strings. Decoders read from the front of a string_view and
// advance it; they return false (never read past the end) on short input.

#ifndef DYNAROCK_ENGINE_UTIL_CODING_H_
#define DYNAROCK_ENGINE_UTIL_CODING_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace dynarock {

void PutVarint64(std::string* out, uint64_t v);
void PutFixed32BE(std::string* out, uint32_t v);
void PutFixed64BE(std::string* out, uint64_t v);
// Varint length, then the bytes.
void PutLengthPrefixed(std::string* out, std::string_view s);
// Zigzag-encoded signed varint.
void PutSignedVarint64(std::string* out, int64_t v);

bool GetVarint64(std::string_view* in, uint64_t* v);
bool GetFixed32BE(std::string_view* in, uint32_t* v);
bool GetFixed64BE(std::string_view* in, uint64_t* v);
bool GetLengthPrefixed(std::string_view* in, std::string_view* s);
bool GetSignedVarint64(std::string_view* in, int64_t* v);

uint32_t DecodeFixed32BE(const char* p);
uint64_t DecodeFixed64BE(const char* p);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_UTIL_CODING_H_
