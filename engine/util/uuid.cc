#include "engine/util/uuid.h"

#include <random>

namespace dynarock {

std::string NewUuid() {
  thread_local std::mt19937_64 rng(std::random_device{}());
  const uint64_t hi = (rng() & ~0xf000ULL) | 0x4000ULL;  // version 4
  const uint64_t lo = (rng() & ~(0xcULL << 60)) | (0x8ULL << 60);  // variant 1
  char buf[37];
  std::snprintf(buf, sizeof(buf), "%08x-%04x-%04x-%04x-%012llx",
                static_cast<unsigned>(hi >> 32),
                static_cast<unsigned>((hi >> 16) & 0xffff),
                static_cast<unsigned>(hi & 0xffff),
                static_cast<unsigned>(lo >> 48),
                static_cast<unsigned long long>(lo & 0xffffffffffffULL));
  return buf;
}

}  // namespace dynarock
