// engine/expr/reserved_words.h
//
// DynamoDB's reserved words: names that may not appear literally as
// attribute names in any expression (use an ExpressionAttributeNames
// placeholder instead). The list is case-insensitive. Immutable; thread-safe.

#ifndef DYNAROCK_ENGINE_EXPR_RESERVED_WORDS_H_
#define DYNAROCK_ENGINE_EXPR_RESERVED_WORDS_H_

#include <span>
#include <string_view>

namespace dynarock::expr {

// The 573 words of the developer guide page "Reserved words in DynamoDB"
// (docs.aws.amazon.com/amazondynamodb/latest/developerguide/ReservedWords.html),
// upper case, sorted.
std::span<const std::string_view> ReservedWords();

// True if `word`, compared case-insensitively, is reserved.
bool IsReservedWord(std::string_view word);

}  // namespace dynarock::expr

#endif  // DYNAROCK_ENGINE_EXPR_RESERVED_WORDS_H_
