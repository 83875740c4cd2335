// The precompiled header of every test file (tests/CMakeLists.txt): the
// third-party headers (gtest, gmock, nlohmann/json for the api tests) and the
// standard headers that nearly every test parses. Project
// headers stay out, so each test still names what it uses.
#ifndef DYNAROCK_TESTS_TESTUTIL_TEST_PCH_H_
#define DYNAROCK_TESTS_TESTUTIL_TEST_PCH_H_

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#endif  // DYNAROCK_TESTS_TESTUTIL_TEST_PCH_H_
