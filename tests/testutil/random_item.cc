#include "tests/testutil/random_item.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/value/number.h"

namespace dynarock {

namespace {

int Uniform(std::mt19937& rng, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}

// Text that exercises JSON escaping and UTF-8: ASCII, every control
// character, quotes, backslashes, slashes, DEL and 2-, 3- and 4-byte
// sequences.
std::string RandomText(std::mt19937& rng) {
  static const char* const kPieces[] = {
      "a", "Z", "0", " ", "\"", "\\", "/", "\b", "\f", "\n", "\r", "\t",
      "\x01", "\x1f", "\x7f", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
      "\xe2\x80\xa8", "<>&'", "\xc2\x80"};
  const int n = Uniform(rng, 0, 12);
  std::string s;
  for (int i = 0; i < n; ++i) {
    if (Uniform(rng, 0, 3) == 0) {
      s += static_cast<char>(Uniform(rng, 0, 0x1f));
    } else {
      s += kPieces[Uniform(rng, 0, std::size(kPieces) - 1)];
    }
  }
  return s;
}

std::string RandomBytes(std::mt19937& rng) {
  const int n = Uniform(rng, 0, 9);
  std::string s;
  for (int i = 0; i < n; ++i) s += static_cast<char>(Uniform(rng, 0, 255));
  return s;
}

Number RandomNumber(std::mt19937& rng) {
  if (Uniform(rng, 0, 9) == 0) return Number();
  std::string digits;
  const int count = Uniform(rng, 1, Number::kMaxDigits);
  for (int i = 0; i < count; ++i) {
    digits += static_cast<char>('0' + Uniform(rng, i == 0 ? 1 : 0, 9));
  }
  // Exponents from 1e-130 to 1e125 in all, kept within Number's range.
  const int point = Uniform(rng, 0, 3) == 0 ? Uniform(rng, -120, 120)
                                            : Uniform(rng, -3, count + 3);
  std::string text = Uniform(rng, 0, 1) ? "-" : "";
  text += digits;
  text += "e" + std::to_string(point - count);
  Result<Number> n = Number::Parse(text);
  return n.ok() ? *n : Number();
}

std::string RandomName(std::mt19937& rng) {
  std::string name = RandomText(rng);
  return name.empty() ? "n" : name;
}

}  // namespace

AttributeValue RandomValue(std::mt19937& rng, int depth) {
  const int kinds = depth > 0 ? 10 : 8;
  switch (Uniform(rng, 0, kinds - 1)) {
    case 0:
      return AttributeValue::S(RandomText(rng));
    case 1:
      return AttributeValue::B(RandomBytes(rng));
    case 2:
      return AttributeValue::N(RandomNumber(rng));
    case 3:
      return AttributeValue::Bool(Uniform(rng, 0, 1) == 1);
    case 4:
      return AttributeValue::Null();
    case 5:
    case 6: {
      const bool strings = Uniform(rng, 0, 1) == 1;
      std::set<std::string> members;
      const int n = Uniform(rng, 1, 4);
      for (int i = 0; i < n; ++i) {
        members.insert(strings ? RandomText(rng) : RandomBytes(rng));
      }
      std::vector<std::string> v(members.begin(), members.end());
      return strings ? AttributeValue::SS(std::move(v))
                     : AttributeValue::BS(std::move(v));
    }
    case 7: {
      std::set<Number> members;
      const int n = Uniform(rng, 1, 4);
      for (int i = 0; i < n; ++i) members.insert(RandomNumber(rng));
      return AttributeValue::NS(std::vector<Number>(members.begin(), members.end()));
    }
    case 8: {
      AttributeValue::List list;
      const int n = Uniform(rng, 0, 4);
      for (int i = 0; i < n; ++i) list.push_back(RandomValue(rng, depth - 1));
      return AttributeValue::L(std::move(list));
    }
    default: {
      AttributeValue::Map map;
      const int n = Uniform(rng, 0, 4);
      for (int i = 0; i < n; ++i) {
        map.emplace(RandomName(rng), RandomValue(rng, depth - 1));
      }
      return AttributeValue::M(std::move(map));
    }
  }
}

Item RandomItem(std::mt19937& rng, int max_attributes) {
  Item item;
  const int n = Uniform(rng, 0, max_attributes);
  for (int i = 0; i < n; ++i) item.emplace(RandomName(rng), RandomValue(rng));
  return item;
}

}  // namespace dynarock
