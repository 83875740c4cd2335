// api/plain_json_reader.h
//
// A strict JSON reader for the part of JSON that GetItem and PutItem bodies
// use on the hot path: objects, strings and true / false, with JSON's
// whitespace. It drives a handler with nlohmann's SAX interface
// (start_object, key, string, boolean, end_object) and gives it exactly the
// events, in the same order and with the same strings, that
// nlohmann::json::sax_parse(strict = true) would give for the same text.
//
// ReadPlainJson returns true only when the whole text is one such object
// that nlohmann would read whole and the handler accepted every event. It
// returns false, having stopped, at the first byte outside that part of JSON
// (a number, null, an array, a byte-order mark), at malformed JSON (which
// nlohmann would refuse too), or when the handler returns false. A caller
// that gets false reads the text another way (api/ops/item_request_reader.cc
// falls back on the JSON tree, which reports DynamoDB's errors).
//
// Why not nlohmann's own SAX parser: its lexer reads a byte at a time
// through an input adapter and copies each string byte by byte into a token
// buffer; here runs of plain bytes are found 8 at a time and copied at once
// (bench/README.md, issue 18, fifth pass). Objects nest in a loop with a
// counter, not recursion, so no input drives the stack (handlers bound the
// depth they accept anyway). Thread-safe as the handler is.

#ifndef DYNAROCK_API_PLAIN_JSON_READER_H_
#define DYNAROCK_API_PLAIN_JSON_READER_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace dynarock::api {

namespace plain_json_internal {

// Reads the string whose opening quote is just before `*i` into `*out`
// (cleared first), escapes decoded as nlohmann decodes them, and moves `*i`
// past its closing quote. False for anything nlohmann refuses: a control
// character, an unknown escape, a lone surrogate, a byte that does not start
// or continue well-formed UTF-8, the end of the text.
bool ReadString(std::string_view text, size_t* i, std::string* out);

// Moves `*i` past JSON whitespace (space, tab, line feed, carriage return).
inline void SkipWhitespace(std::string_view text, size_t* i) {
  while (*i < text.size()) {
    const char c = text[*i];
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return;
    ++*i;
  }
}

// Whether `text` at `*i` spells `word`; if so, moves `*i` past it.
inline bool Consume(std::string_view text, size_t* i, std::string_view word) {
  if (text.substr(*i, word.size()) != word) return false;
  *i += word.size();
  return true;
}

}  // namespace plain_json_internal

// See the file comment. `Sax` has nlohmann's SAX members start_object,
// end_object, key, string and boolean (the others are never called).
template <typename Sax>
bool ReadPlainJson(std::string_view text, Sax* sax) {
  namespace in = plain_json_internal;
  // nlohmann's start_object argument for text input: the size is unknown.
  constexpr size_t kUnknownSize = static_cast<size_t>(-1);
  size_t i = 0;
  size_t depth = 0;  // objects open
  std::string token;  // each key and string in turn, one buffer for all
  in::SkipWhitespace(text, &i);
  if (i == text.size() || text[i] != '{') return false;
  ++i;
  if (!sax->start_object(kUnknownSize)) return false;
  depth = 1;
  // Just after '{': a member or '}'.
  bool member_or_close = true;
  while (true) {
    in::SkipWhitespace(text, &i);
    if (i == text.size()) return false;
    if (member_or_close && text[i] == '}') {
      ++i;
      if (!sax->end_object()) return false;
      --depth;
    } else {
      // A member: "name" : value.
      if (text[i] != '"') return false;
      ++i;
      if (!in::ReadString(text, &i, &token) || !sax->key(token)) return false;
      in::SkipWhitespace(text, &i);
      if (i == text.size() || text[i] != ':') return false;
      ++i;
      in::SkipWhitespace(text, &i);
      if (i == text.size()) return false;
      switch (text[i]) {
        case '"':
          ++i;
          if (!in::ReadString(text, &i, &token) || !sax->string(token)) {
            return false;
          }
          break;
        case '{':
          ++i;
          if (!sax->start_object(kUnknownSize)) return false;
          ++depth;
          member_or_close = true;
          continue;
        case 't':
          if (!in::Consume(text, &i, "true") || !sax->boolean(true)) {
            return false;
          }
          break;
        case 'f':
          if (!in::Consume(text, &i, "false") || !sax->boolean(false)) {
            return false;
          }
          break;
        default:  // a number, null, an array, or not JSON
          return false;
      }
    }
    // After a value or an object's '}': ',', '}' or, at the top, the end.
    member_or_close = false;
    while (true) {
      in::SkipWhitespace(text, &i);
      if (depth == 0) return i == text.size();
      if (i == text.size()) return false;
      if (text[i] == ',') {
        ++i;
        break;
      }
      if (text[i] != '}') return false;
      ++i;
      if (!sax->end_object()) return false;
      --depth;
    }
  }
}

}  // namespace dynarock::api

#endif  // DYNAROCK_API_PLAIN_JSON_READER_H_
