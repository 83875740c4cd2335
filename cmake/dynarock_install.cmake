# Install rules and the CMake package: `cmake --install <build> --prefix P`
# puts the public headers, the two libraries, the dynarock binary (when
# built) and lib/cmake/dynarock/ (dynarockConfig.cmake and friends) under P,
# and another project uses them with
#
#   find_package(dynarock REQUIRED)
#   target_link_libraries(sim PRIVATE dynarock::engine)   # engine/engine.h
#   target_link_libraries(app PRIVATE dynarock::client)   # api/client.h (+ engine)
#
# As a subproject (add_subdirectory / FetchContent) the same two names are
# aliases of the libraries, and nothing is installed unless DYNAROCK_INSTALL
# is turned on. docs/embedding.md describes the API and the rules.

option(DYNAROCK_INSTALL "Generate dynarock's install rules and CPack configuration"
       ${PROJECT_IS_TOP_LEVEL})

add_library(dynarock::engine ALIAS dynarock_engine)
add_library(dynarock::client ALIAS dynarock_api)
set_target_properties(dynarock_engine PROPERTIES EXPORT_NAME engine)
set_target_properties(dynarock_api PROPERTIES EXPORT_NAME client)

if(NOT DYNAROCK_INSTALL)
  return()
endif()

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The installed headers sit under include/dynarock/, keeping the paths they
# include each other by (engine/..., api/...); the exported targets add
# include/dynarock to the consumer's include path, so a program writes
# #include "engine/engine.h" as the code in this repository does, and
# include/ itself gets no directory named engine/ or api/.
set(DYNAROCK_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/dynarock)
set(DYNAROCK_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/dynarock)

# The public surface an embedding program includes. Everything these include,
# transitively, is installed with them (request types, capacity statistics,
# numbers...), and nothing else: the other headers of engine/ and api/ are
# internal and a consumer never includes them. transfer_files.h is there for
# EngineOptions::transfer_files (exports and imports in process).
set(DYNAROCK_PUBLIC_HEADERS
  engine/engine.h
  engine/options.h
  engine/clock.h
  engine/status.h
  engine/types.h
  engine/transfer/transfer_files.h
  api/client.h)

# dynarock_header_closure(OUT roots...): `roots` and every repository header
# they include, transitively, as paths relative to the source tree. Read from
# the headers' `#include "engine/..."` / `#include "api/..."` lines (every
# project include is written that way; check_includes.py enforces it), at
# configure time. Each header read is a configure dependency, so a header that
# starts including another (e.g. a split of a header into several) re-runs
# this on the next build, and the installed set follows the code.
function(dynarock_header_closure out)
  set(seen "")
  set(work ${ARGN})
  while(work)
    list(POP_FRONT work h)
    if(h IN_LIST seen)
      continue()
    endif()
    set(file ${PROJECT_SOURCE_DIR}/${h})
    if(NOT EXISTS ${file})
      message(FATAL_ERROR "dynarock install: ${h} is included by a public header "
                          "but does not exist")
    endif()
    list(APPEND seen ${h})
    set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${file})
    file(STRINGS ${file} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"(engine|api)/")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" inc "${line}")
      list(APPEND work ${inc})
    endforeach()
  endwhile()
  list(SORT seen)
  set(${out} ${seen} PARENT_SCOPE)
endfunction()

dynarock_header_closure(DYNAROCK_INSTALLED_HEADERS ${DYNAROCK_PUBLIC_HEADERS})
foreach(h IN LISTS DYNAROCK_INSTALLED_HEADERS)
  get_filename_component(dir ${h} DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/${h}
          DESTINATION ${DYNAROCK_INSTALL_INCLUDEDIR}/${dir} COMPONENT dev)
endforeach()
# The list, one header a line, for scripts/package_check.sh, which checks
# that the install holds exactly these and that they compile from there.
list(JOIN DYNAROCK_INSTALLED_HEADERS "\n" _dynarock_header_lines)
file(CONFIGURE OUTPUT ${PROJECT_BINARY_DIR}/dynarock_installed_headers.txt
     CONTENT "${_dynarock_header_lines}\n")

install(TARGETS dynarock_engine dynarock_api
        EXPORT dynarockTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
        INCLUDES DESTINATION ${DYNAROCK_INSTALL_INCLUDEDIR})
install(EXPORT dynarockTargets
        NAMESPACE dynarock::
        DESTINATION ${DYNAROCK_INSTALL_CMAKEDIR} COMPONENT dev)
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/dynarockConfig.cmake.in
  ${PROJECT_BINARY_DIR}/dynarockConfig.cmake
  INSTALL_DESTINATION ${DYNAROCK_INSTALL_CMAKEDIR})
# No API or ABI promise before 1.0 (docs/embedding.md): a request for 0.1
# accepts 0.1.x only.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/dynarockConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/dynarockConfig.cmake
              ${PROJECT_BINARY_DIR}/dynarockConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/dynarock_dependencies.cmake
        DESTINATION ${DYNAROCK_INSTALL_CMAKEDIR} COMPONENT dev)

if(TARGET dynarock)
  install(TARGETS dynarock RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT server)
endif()
install(FILES ${PROJECT_SOURCE_DIR}/README.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT server)
install(FILES ${PROJECT_SOURCE_DIR}/docs/embedding.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT dev)

include(dynarock_cpack)
