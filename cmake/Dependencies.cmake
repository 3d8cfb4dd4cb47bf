# Every dependency comes from the distribution's packages (see .ci/run) or the CUDA toolkit.
find_package(CUDAToolkit 12 REQUIRED)        # NVRTC only; the driver is opened at run time
find_package(fmt REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
# toml++ is used header-only (Debian's package config would link its shared library, which a
# portable binary cannot carry).
find_path(TOMLPLUSPLUS_INCLUDE_DIR toml++/toml.h REQUIRED)
add_library(tilecamp_toml INTERFACE)
target_include_directories(tilecamp_toml INTERFACE ${TOMLPLUSPLUS_INCLUDE_DIR})
target_compile_definitions(tilecamp_toml INTERFACE TOML_HEADER_ONLY=1)
find_package(CLI11 2 REQUIRED)
# Debian's cmark CMake package insists that the cmark program is installed too, so cmark is
# found as a plain header and library instead.
find_path(CMARK_INCLUDE_DIR cmark.h REQUIRED)
find_library(CMARK_SHARED_LIBRARY NAMES cmark REQUIRED)
find_library(CMARK_STATIC_LIBRARY NAMES libcmark.a)
if(TILECAMP_BUILD_TESTS)
  find_package(doctest REQUIRED)
endif()

# libseccomp builds the sandbox's system-call filter (Debian: libseccomp-dev).
find_path(SECCOMP_INCLUDE_DIR seccomp.h REQUIRED)
find_library(SECCOMP_SHARED_LIBRARY NAMES seccomp REQUIRED)
find_library(SECCOMP_STATIC_LIBRARY NAMES libseccomp.a)
add_library(tilecamp_seccomp INTERFACE)
target_include_directories(tilecamp_seccomp INTERFACE ${SECCOMP_INCLUDE_DIR})
if(TILECAMP_PORTABLE)
  if(NOT SECCOMP_STATIC_LIBRARY)
    message(FATAL_ERROR "TILECAMP_PORTABLE needs libseccomp.a (Debian: libseccomp-dev)")
  endif()
  target_link_libraries(tilecamp_seccomp INTERFACE ${SECCOMP_STATIC_LIBRARY})
else()
  target_link_libraries(tilecamp_seccomp INTERFACE ${SECCOMP_SHARED_LIBRARY})
endif()

add_library(tilecamp_cmark INTERFACE)
target_include_directories(tilecamp_cmark INTERFACE ${CMARK_INCLUDE_DIR})
if(TILECAMP_PORTABLE)
  if(NOT CMARK_STATIC_LIBRARY)
    message(FATAL_ERROR "TILECAMP_PORTABLE needs libcmark.a (Debian: libcmark-dev)")
  endif()
  target_link_libraries(tilecamp_cmark INTERFACE ${CMARK_STATIC_LIBRARY})
else()
  target_link_libraries(tilecamp_cmark INTERFACE ${CMARK_SHARED_LIBRARY})
endif()
set(TILECAMP_CMARK tilecamp_cmark)
