// tests/fuzz/ion_text_fuzz.cc
//
// libFuzzer target for the Amazon Ion text reader of ImportTable
// (api/transfer/ion_text.h). Each input is an import file's text. Every
// record the reader accepts is written back with the export's writer and
// read again: it must come back as the same one item. Any crash, sanitizer
// report or stack exhaustion on deep input is a finding (the reader bounds
// nesting with an explicit stack).
//
// Build: clang, -DDYNAROCK_BUILD_FUZZERS=ON (see tests/fuzz/CMakeLists.txt).
// Run:   ./ion_text_fuzz -max_total_time=60 -dict=../tests/fuzz/ion_text.dict \
//            corpus_dir ../tests/fuzz/corpus/ion_text

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "api/transfer/ion_text.h"
#include "engine/value/item_codec.h"

namespace {

using dynarock::Item;
using dynarock::Result;
using dynarock::Status;

std::vector<Result<Item>> ReadAll(std::string_view text) {
  std::vector<Result<Item>> out;
  Status s = dynarock::api::VisitIonRecords(text, [&](Result<Item> r) {
    out.push_back(std::move(r));
    return Status::OK();
  });
  if (!s.ok()) std::abort();  // the visitor never fails, so neither may the reader
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const Result<Item>& record : ReadAll(text)) {
    if (!record.ok()) continue;
    std::string encoded;
    dynarock::EncodeItem(*record, &encoded);
    std::string line;
    if (!dynarock::api::AppendIonItemLine(encoded, &line).ok()) std::abort();
    const std::vector<Result<Item>> again = ReadAll(line);
    if (again.size() != 1 || !again[0].ok() || !(*again[0] == *record)) std::abort();
  }
  return 0;
}
