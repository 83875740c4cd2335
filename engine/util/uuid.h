// engine/util/uuid.h
//
// Random version-4 UUIDs ("3f2b...-...") for TableId and request ids.
// Thread-safe.

#ifndef DYNAROCK_ENGINE_UTIL_UUID_H_
#define DYNAROCK_ENGINE_UTIL_UUID_H_

#include <string>

namespace dynarock {

std::string NewUuid();

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_UTIL_UUID_H_
