#include "engine/keys/key_codec.h"

#include <xxhash.h>

#include <cassert>

#include "engine/util/coding.h"

namespace dynarock::keys {
namespace {

// Numbers: a class byte, then for non-zero values the exponent (biased, two
// bytes) and the digits (each digit d as d+1, so no digit byte is 0x00),
// then a terminator. Negative numbers invert every byte after the class, so
// that larger magnitudes sort first.
constexpr char kNegative = 0x01;
constexpr char kZero = 0x02;
constexpr char kPositive = 0x03;
constexpr int kExponentBias = 0x8000;

// Strings and binaries: 0x00 is escaped as 0x00 0xFF and the value ends with
// 0x00 0x01, which keeps unsigned byte order and makes it self-delimiting.
constexpr char kEscape = '\xff';
constexpr char kTerminator = '\x01';

void AppendBytes(std::string_view bytes, std::string* out) {
  for (char c : bytes) {
    out->push_back(c);
    if (c == '\0') out->push_back(kEscape);
  }
  out->push_back('\0');
  out->push_back(kTerminator);
}

void AppendNumber(const Number& n, std::string* out) {
  if (n.is_zero()) {
    out->push_back(kZero);
    return;
  }
  const unsigned char flip = n.negative() ? 0xff : 0x00;
  out->push_back(n.negative() ? kNegative : kPositive);
  const uint16_t exponent = static_cast<uint16_t>(n.exponent() + kExponentBias);
  out->push_back(static_cast<char>((exponent >> 8) ^ flip));
  out->push_back(static_cast<char>((exponent & 0xff) ^ flip));
  for (char d : n.digits()) {
    out->push_back(static_cast<char>((d - '0' + 1) ^ flip));
  }
  out->push_back(static_cast<char>(0x00 ^ flip));
}

Status Corrupt() { return Status::Corruption("corrupt key encoding"); }

}  // namespace

void AppendOrdered(const AttributeValue& value, std::string* out) {
  switch (value.type()) {
    case AttrType::kS:
      AppendBytes(value.s(), out);
      return;
    case AttrType::kB:
      AppendBytes(value.b(), out);
      return;
    case AttrType::kN:
      AppendNumber(value.n(), out);
      return;
    default:
      assert(false && "key values are S, N or B");
  }
}

Result<AttributeValue> DecodeOrdered(AttrType type, std::string_view* in) {
  if (type == AttrType::kS || type == AttrType::kB) {
    std::string bytes;
    for (size_t i = 0; i < in->size(); ++i) {
      char c = (*in)[i];
      if (c != '\0') {
        bytes.push_back(c);
        continue;
      }
      if (i + 1 >= in->size()) return Corrupt();
      char next = (*in)[i + 1];
      if (next == kTerminator) {
        in->remove_prefix(i + 2);
        return type == AttrType::kS ? AttributeValue::S(std::move(bytes))
                                    : AttributeValue::B(std::move(bytes));
      }
      if (next != kEscape) return Corrupt();
      bytes.push_back('\0');
      ++i;
    }
    return Corrupt();
  }
  if (type != AttrType::kN || in->empty()) return Corrupt();
  const char cls = in->front();
  in->remove_prefix(1);
  if (cls == kZero) return AttributeValue::N(Number());
  if (cls != kNegative && cls != kPositive) return Corrupt();
  const unsigned char flip = cls == kNegative ? 0xff : 0x00;
  if (in->size() < 2) return Corrupt();
  const int exponent =
      ((static_cast<unsigned char>((*in)[0]) ^ flip) << 8 |
       (static_cast<unsigned char>((*in)[1]) ^ flip)) -
      kExponentBias;
  in->remove_prefix(2);
  std::string digits;
  while (true) {
    if (in->empty()) return Corrupt();
    const unsigned char b = static_cast<unsigned char>(in->front()) ^ flip;
    in->remove_prefix(1);
    if (b == 0) break;
    if (b > 10 || digits.size() >= Number::kMaxDigits) return Corrupt();
    digits.push_back(static_cast<char>('0' + b - 1));
  }
  if (digits.empty() || digits.front() == '0' || digits.back() == '0' ||
      exponent < Number::kMinExponent || exponent > Number::kMaxExponent) {
    return Corrupt();
  }
  return AttributeValue::N(
      Number::FromParts(cls == kNegative, std::move(digits), exponent));
}

uint64_t PartitionHash(const AttributeValue& partition_key) {
  std::string buf;
  buf.push_back(static_cast<char>(partition_key.type()));
  AppendOrdered(partition_key, &buf);
  return XXH64(buf.data(), buf.size(), /*seed=*/0);
}

uint64_t PartitionHash(std::span<const AttributeValue* const> parts) {
  std::string buf;
  for (const AttributeValue* v : parts) {
    buf.push_back(static_cast<char>(v->type()));
    AppendOrdered(*v, &buf);
  }
  return XXH64(buf.data(), buf.size(), /*seed=*/0);
}

std::string PartitionPrefix(uint32_t id,
                            std::span<const AttributeValue* const> parts) {
  std::string key;
  key.reserve(64);
  PutFixed32BE(&key, id);
  PutFixed64BE(&key, PartitionHash(parts));
  for (const AttributeValue* v : parts) AppendOrdered(*v, &key);
  return key;
}

std::string ItemKey(uint32_t table_id, const AttributeValue& partition_key,
                    const AttributeValue* sort_key) {
  std::string key;
  key.reserve(64);
  PutFixed32BE(&key, table_id);
  PutFixed64BE(&key, PartitionHash(partition_key));
  AppendOrdered(partition_key, &key);
  if (sort_key != nullptr) AppendOrdered(*sort_key, &key);
  return key;
}

std::string TablePrefix(uint32_t table_id) {
  std::string key;
  PutFixed32BE(&key, table_id);
  return key;
}

std::string TableEnd(uint32_t table_id) {
  // Table ids stay below UINT32_MAX (the catalog never hands it out), so
  // id + 1 does not wrap.
  return TablePrefix(table_id + 1);
}

std::string HashRangeStart(uint32_t table_id, uint64_t hash) {
  std::string key = TablePrefix(table_id);
  PutFixed64BE(&key, hash);
  return key;
}

std::string HashRangeEnd(uint32_t table_id, uint64_t end) {
  return end == 0 ? TableEnd(table_id) : HashRangeStart(table_id, end);
}

uint64_t HashOfKey(std::string_view storage_key) {
  return storage_key.size() >= kHashedPrefixSize ? DecodeFixed64BE(storage_key.data() + 4) : 0;
}

}  // namespace dynarock::keys

namespace dynarock {

std::string PrefixSuccessor(std::string prefix) {
  while (!prefix.empty() && static_cast<unsigned char>(prefix.back()) == 0xff) {
    prefix.pop_back();
  }
  if (!prefix.empty()) prefix.back() = static_cast<char>(prefix.back() + 1);
  return prefix;
}

}  // namespace dynarock
