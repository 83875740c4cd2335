# The libraries dynarock links that ship no CMake package of their own (or,
# for RocksDB, one that does not fit: Debian's exports a static target that
# drags in gflags, so the shared library is linked directly).
#
# Each becomes an imported target, dynarock::dep_<name>, found by
# find_library on the machine that reads this file. The build includes it
# (top-level CMakeLists.txt) and so does the installed dynarockConfig.cmake:
# the exported dynarock::engine / dynarock::client name these targets, never
# a path of the machine that built the package. The targets are an
# implementation detail of the package, not part of its interface.
#
# After inclusion, DYNAROCK_MISSING_LIBRARIES lists what was not found.

set(DYNAROCK_MISSING_LIBRARIES "")

# dynarock_import_library(NAME LIBRARY [HEADER path]): dynarock::dep_NAME,
# the shared (or static) library LIBRARY; HEADER is searched too when the
# code includes the library's headers, so that a missing -dev package is
# reported here rather than as a compile error.
function(dynarock_import_library name library)
  cmake_parse_arguments(ARG "" "HEADER" "" ${ARGN})
  string(TOUPPER "${name}" upper)
  if(TARGET dynarock::dep_${name})
    return()
  endif()
  find_library(DYNAROCK_${upper}_LIBRARY ${library})
  set(found TRUE)
  if(NOT DYNAROCK_${upper}_LIBRARY)
    set(found FALSE)
  endif()
  if(ARG_HEADER)
    find_path(DYNAROCK_${upper}_INCLUDE_DIR ${ARG_HEADER})
    if(NOT DYNAROCK_${upper}_INCLUDE_DIR)
      set(found FALSE)
    endif()
  endif()
  if(NOT found)
    set(DYNAROCK_MISSING_LIBRARIES ${DYNAROCK_MISSING_LIBRARIES} ${library} PARENT_SCOPE)
    return()
  endif()
  add_library(dynarock::dep_${name} UNKNOWN IMPORTED)
  set_target_properties(dynarock::dep_${name} PROPERTIES
    IMPORTED_LOCATION "${DYNAROCK_${upper}_LIBRARY}")
  if(ARG_HEADER)
    set_target_properties(dynarock::dep_${name} PROPERTIES
      INTERFACE_INCLUDE_DIRECTORIES "${DYNAROCK_${upper}_INCLUDE_DIR}")
  endif()
endfunction()

dynarock_import_library(rocksdb rocksdb HEADER rocksdb/db.h)
dynarock_import_library(xxhash xxhash HEADER xxhash.h)
# Export and import files: zstd (api/transfer/).
dynarock_import_library(zstd zstd HEADER zstd.h)
# Every response's x-amz-crc32: Intel ISA-L's folding CRC-32 (libisal-dev).
dynarock_import_library(isal isal HEADER isa-l/crc.h)
