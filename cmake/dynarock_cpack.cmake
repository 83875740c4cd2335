# Debian packages through CPack, from a configured build tree:
#
#   cpack -G DEB --config build/CPackConfig.cmake -B <dir>
#
# makes two packages from the install rules' components (cmake/
# dynarock_install.cmake):
#   dynarock_<version>_<arch>.deb      the server: /usr/bin/dynarock (component server)
#   dynarock-dev_<version>_<arch>.deb  headers, static libraries, CMake package
#                                      (component dev)
# Both install with `apt-get install ./dynarock_*.deb` on the Debian release
# they were built on: the server's Depends are the shared libraries it was
# linked against (dpkg-shlibdeps), which name that release's packages.
# CPack only packages what the tree has built; it builds nothing.

set(CPACK_PACKAGE_NAME dynarock)
set(CPACK_PACKAGE_VENDOR "dynarock")
set(CPACK_PACKAGE_CONTACT "dynarock maintainers <dynarock@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "DynamoDB-compatible storage engine on RocksDB")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_COMPONENTS_ALL server dev)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_SERVER_PACKAGE_NAME dynarock)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME dynarock-dev)
set(CPACK_DEBIAN_SERVER_PACKAGE_SECTION database)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_SERVER_DESCRIPTION
"DynamoDB-compatible storage engine on RocksDB: server and tools
 dynarock serves DynamoDB's JSON 1.0 protocol over HTTP (a drop-in for
 DynamoDB Local) and models DynamoDB's capacity: partitions, throttling,
 burst and adaptive capacity, asynchronous GSIs, on a clock a simulator
 can drive (dynarock simulate).")
set(CPACK_DEBIAN_DEV_DESCRIPTION
"DynamoDB-compatible storage engine on RocksDB: development files
 Headers, static libraries and the CMake package (find_package(dynarock):
 dynarock::engine, dynarock::client) for embedding the engine in a C++
 program, e.g. a simulator on a simulated clock.")

find_program(DYNAROCK_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(DYNAROCK_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_SERVER_PACKAGE_SHLIBDEPS ON)
else()
  # Debian 12 (bookworm)'s names, for a machine without dpkg-dev.
  set(CPACK_DEBIAN_SERVER_PACKAGE_DEPENDS
      "librocksdb7.8, libxxhash0, libzstd1, libisal2, libssl3, zlib1g, libstdc++6, libc6")
endif()
# What find_package(dynarock) finds again (dynarockConfig.cmake): the -dev
# packages of the same libraries; Boost and nlohmann_json are header-only.
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
    "librocksdb-dev, libxxhash-dev, libzstd-dev, libisal-dev, libssl-dev, zlib1g-dev, nlohmann-json3-dev (>= 3), libboost-dev (>= 1.74)")

include(CPack)
