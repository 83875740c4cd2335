#include "engine/value/value_text.h"

#include <string>

#include "engine/util/base64.h"

namespace dynarock {

namespace {

void AppendValue(const AttributeValue& v, std::string& out);

void AppendList(const AttributeValue::List& list, std::string& out) {
  out += "[";
  for (size_t i = 0; i < list.size(); ++i) {
    if (i > 0) out += ", ";
    AppendValue(list[i], out);
  }
  out += "]";
}

void AppendValue(const AttributeValue& v, std::string& out) {
  switch (v.type()) {
    case AttrType::kS:
    case AttrType::kN:
    case AttrType::kB:
    case AttrType::kBool:
    case AttrType::kNull:
      out += ValueForMessage(v);
      return;
    case AttrType::kL:
      out += "{L:";
      AppendList(v.l(), out);
      out += "}";
      return;
    case AttrType::kM: {
      out += "{M:{";
      bool first = true;
      for (const auto& [k, child] : v.m()) {
        if (!first) out += ", ";
        first = false;
        out += k;
        out += ":";
        AppendValue(child, out);
      }
      out += "}}";
      return;
    }
    case AttrType::kSS:
    case AttrType::kBS: {
      out += v.type() == AttrType::kSS ? "{SS:[" : "{BS:[";
      for (size_t i = 0; i < v.ss().size(); ++i) {
        if (i > 0) out += ", ";
        if (v.type() == AttrType::kSS) {
          out += v.ss()[i];
        } else {
          // Reuse the B rendering for each member.
          std::string member = ValueForMessage(AttributeValue::B(v.bs()[i]));
          out += member.substr(3, member.size() - 4);
        }
      }
      out += "]}";
      return;
    }
    case AttrType::kNS:
      out += "{NS:[";
      for (size_t i = 0; i < v.ns().size(); ++i) {
        if (i > 0) out += ", ";
        out += v.ns()[i].ToString();
      }
      out += "]}";
      return;
  }
}

}  // namespace

std::string ValueForMessage(const AttributeValue& value) {
  std::string out = "{";
  out += AttrTypeName(value.type());
  out += ":";
  switch (value.type()) {
    case AttrType::kS:
      out += value.s();
      break;
    case AttrType::kN:
      out += value.n().ToString();
      break;
    case AttrType::kB:
      out += Base64Encode(value.b());
      break;
    case AttrType::kBool:
      out += value.boolean() ? "true" : "false";
      break;
    case AttrType::kNull:
      out += "true";
      break;
    default:
      out += "...";
      break;
  }
  out += "}";
  return out;
}

std::string RenderValue(const AttributeValue& value) {
  std::string out;
  AppendValue(value, out);
  return out;
}

std::string RenderItem(const Item& item) {
  std::string out = "{";
  bool first = true;
  for (const auto& [name, value] : item) {
    if (!first) out += ", ";
    first = false;
    out += name;
    out += ":";
    AppendValue(value, out);
  }
  out += "}";
  return out;
}

}  // namespace dynarock
