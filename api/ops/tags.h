// api/ops/tags.h
//
// The Tags member shared by TagResource and CreateTable (api/ops/tag_ops.cc):
// its shape (Key 1..128 characters, Value up to 256) and its decoding.

#ifndef DYNAROCK_API_OPS_TAGS_H_
#define DYNAROCK_API_OPS_TAGS_H_

#include <vector>

#include "api/json_codec.h"
#include "api/validate.h"
#include "engine/types.h"

namespace dynarock::api::ops {

// "Tags": a list of {Key, Value}; not required.
Member TagListMember();
// The request's Tags, in order. REQUIRES: the request was validated.
std::vector<Tag> DecodeTags(const Json& request);

}  // namespace dynarock::api::ops

#endif  // DYNAROCK_API_OPS_TAGS_H_
