# Small helpers so that each CMakeLists.txt reads like a table.

set(DYNAROCK_WARNINGS -Wall -Wextra -Wno-missing-field-initializers)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  # GCC 12 reports -Wrestrict inside libstdc++ for plain std::string
  # concatenation at -O2 (GCC PR 105329), a false positive.
  list(APPEND DYNAROCK_WARNINGS -Wno-restrict)
endif()
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  # Clang checks the GUARDED_BY / REQUIRES annotations (engine/util/
  # thread_annotations.h); a violation is an error in every clang build,
  # which CI's fuzzer build is.
  list(APPEND DYNAROCK_WARNINGS -Wthread-safety -Werror=thread-safety)
endif()
if(DYNAROCK_SANITIZE AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  # With -fsanitize=address at -O1, GCC 12 reports -Wmaybe-uninitialized
  # inside std::optional / std::variant destructors that every path has
  # initialized (its manual warns that the sanitizers make these warnings
  # unreliable). The Release build keeps the warning, as an error.
  list(APPEND DYNAROCK_WARNINGS -Wno-maybe-uninitialized)
endif()
if(DYNAROCK_WERROR)
  list(APPEND DYNAROCK_WARNINGS -Werror)
endif()
if(DYNAROCK_BUILD_FUZZERS AND NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "DYNAROCK_BUILD_FUZZERS needs clang (libFuzzer): "
                      "configure with CC=clang CXX=clang++")
endif()
# The fuzzers run under ASan/UBSan too, so they imply DYNAROCK_SANITIZE.
if(DYNAROCK_SANITIZE OR DYNAROCK_BUILD_FUZZERS)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
# lld links a sanitizer test binary in a quarter of GNU ld's time (0.7 s
# against 2.95 s for engine_query_scan_test); CI links about 110 of them.
# Used whenever the compiler driver can find it; GNU ld otherwise.
include(CheckLinkerFlag)
check_linker_flag(CXX -fuse-ld=lld DYNAROCK_HAVE_LLD)
if(DYNAROCK_HAVE_LLD)
  add_link_options(-fuse-ld=lld)
endif()
if(DYNAROCK_BUILD_FUZZERS)
  # Coverage instrumentation for libFuzzer on every object, so that one
  # sanitizer tree serves both the unit tests and the fuzzers: CI compiles
  # the code once for both. Only the fuzzers link libFuzzer itself
  # (tests/fuzz/CMakeLists.txt); the tests get the sanitizer runtime's
  # no-op coverage callbacks.
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

# dynarock_library(NAME SOURCES ... DEPS ...)
function(dynarock_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  # Headers include each other rooted at the repository ("engine/status.h");
  # installed, the same tree sits under include/dynarock
  # (cmake/dynarock_install.cmake). The headers need C++20.
  target_include_directories(${name} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>)
  target_compile_features(${name} PUBLIC cxx_std_20)
  target_compile_options(${name} PRIVATE ${DYNAROCK_WARNINGS})
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
endfunction()

# dynarock_test_compile_options(TARGET): the compile options of a test file,
# shared by the tests and their precompiled header (which must match them).
function(dynarock_test_compile_options target)
  target_compile_options(${target} PRIVATE ${DYNAROCK_WARNINGS})
  if(DYNAROCK_SANITIZE OR DYNAROCK_BUILD_FUZZERS)
    # The code under test keeps its optimization level; the test file
    # itself is compiled at -O0 in the sanitizer tree, about 30% less
    # compile time than -O1 for gtest-heavy files (CI compiles ~100 of them).
    target_compile_options(${target} PRIVATE -O0)
  endif()
endfunction()

# dynarock_test(tests/engine/value/number_test.cc DEPS ...): the target name is
# derived from the file (number_test); every test also joins dynarock_tests.
set_property(GLOBAL PROPERTY DYNAROCK_TEST_SOURCES "")
function(dynarock_test file)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  get_filename_component(name ${file} NAME_WE)
  add_executable(${name} ${file})
  dynarock_test_compile_options(${name})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} dynarock_testutil GTest::gtest GTest::gmock GTest::gtest_main)
  # Every test file parses gtest, gmock and the standard headers (about 2 s
  # of each file's compile under the sanitizers): parse them once
  # (tests/testutil/test_pch.h, built by dynarock_test_pch in tests/).
  if(TARGET dynarock_test_pch)
    target_precompile_headers(${name} REUSE_FROM dynarock_test_pch)
  endif()
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60)
endfunction()

# dynarock_bench(bench/engine_bench.cc DEPS ...)
function(dynarock_bench file)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  get_filename_component(name ${file} NAME_WE)
  add_executable(${name} ${file})
  target_compile_options(${name} PRIVATE ${DYNAROCK_WARNINGS})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} benchmark::benchmark)
endfunction()
