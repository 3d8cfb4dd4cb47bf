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
# A C library found as a plain header and library, as an INTERFACE target: linked statically in
# a portable build (which then needs the .a), else shared.
#   tilecamp_c_library(TARGET HEADER NAME PACKAGE)
function(tilecamp_c_library target header name package)
  string(TOUPPER ${name} upper)
  find_path(${upper}_INCLUDE_DIR ${header} REQUIRED)
  find_library(${upper}_SHARED_LIBRARY NAMES ${name} REQUIRED)
  find_library(${upper}_STATIC_LIBRARY NAMES lib${name}.a)
  add_library(${target} INTERFACE)
  target_include_directories(${target} INTERFACE ${${upper}_INCLUDE_DIR})
  if(TILECAMP_PORTABLE)
    if(NOT ${upper}_STATIC_LIBRARY)
      message(FATAL_ERROR "TILECAMP_PORTABLE needs lib${name}.a (Debian: ${package})")
    endif()
    target_link_libraries(${target} INTERFACE ${${upper}_STATIC_LIBRARY})
  else()
    target_link_libraries(${target} INTERFACE ${${upper}_SHARED_LIBRARY})
  endif()
endfunction()

if(TILECAMP_BUILD_TESTS)
  find_package(doctest REQUIRED)
endif()
# Debian's cmark CMake package insists that the cmark program is installed too, so cmark is
# found as a plain header and library instead.
tilecamp_c_library(tilecamp_cmark cmark.h cmark libcmark-dev)
# libseccomp builds the sandbox's system-call filter.
tilecamp_c_library(tilecamp_seccomp seccomp.h seccomp libseccomp-dev)
set(TILECAMP_CMARK tilecamp_cmark)
