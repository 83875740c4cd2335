#include "tests/testutil/test_engine.h"

#include <cstdio>
#include <cstdlib>

namespace dynarock {

EngineOptions TestEngine::Options() {
  EngineOptions options;
  options.in_memory = true;
  options.table_create_delay_micros = 0;
  options.table_delete_delay_micros = 0;
  return options;
}

TestEngine::TestEngine(EngineOptions options) {
  options.clock = &clock;
  auto opened = Engine::Open(options);
  if (!opened.ok()) {
    std::fprintf(stderr, "TestEngine: %s\n", opened.status().ToString().c_str());
    std::abort();
  }
  engine = std::move(opened).value();
}

CreateTableRequest SimpleTable(const std::string& name, bool with_sort) {
  CreateTableRequest req;
  req.table_name = name;
  req.attribute_definitions = {{"pk", AttrType::kS}};
  req.key_schema = {{"pk", KeyType::kHash}};
  if (with_sort) {
    req.attribute_definitions.push_back({"sk", AttrType::kN});
    req.key_schema.push_back({"sk", KeyType::kRange});
  }
  req.billing_mode = BillingMode::kPayPerRequest;
  return req;
}

Item SimpleItem(const std::string& pk, const char* sk, std::string payload) {
  Item item = SimpleKey(pk, sk);
  item["payload"] = AttributeValue::S(std::move(payload));
  return item;
}

Item SimpleKey(const std::string& pk, const char* sk) {
  Item key;
  key["pk"] = AttributeValue::S(pk);
  key["sk"] = AttributeValue::N(Number::Parse(sk).value());
  return key;
}

}  // namespace dynarock
