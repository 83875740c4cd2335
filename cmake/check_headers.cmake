# check_headers: compiles every header of engine/ and api/ on its own (one tiny
# translation unit per header), so that no header depends on what its
# includer happened to include first. Not part of `all`; scripts/test.sh
# builds it.
file(GLOB_RECURSE DYNAROCK_HEADERS CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/engine/*.h ${PROJECT_SOURCE_DIR}/api/*.h)
set(CHECK_SOURCES "")
foreach(h ${DYNAROCK_HEADERS})
  file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${h})
  string(REPLACE "/" "_" stem ${rel})
  set(src ${PROJECT_BINARY_DIR}/check_headers/${stem}.cc)
  file(CONFIGURE OUTPUT ${src} CONTENT "#include \"${rel}\"\n")
  list(APPEND CHECK_SOURCES ${src})
endforeach()
add_library(check_headers OBJECT EXCLUDE_FROM_ALL ${CHECK_SOURCES})
target_include_directories(check_headers PRIVATE ${PROJECT_SOURCE_DIR})
target_compile_options(check_headers PRIVATE ${DYNAROCK_WARNINGS})
target_link_libraries(check_headers PRIVATE nlohmann_json::nlohmann_json Boost::headers)
