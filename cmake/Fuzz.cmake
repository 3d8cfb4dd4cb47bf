# libFuzzer targets (TILECAMP_FUZZ=ON; clang only): see tests/fuzz/fuzz_ptx_parser.cpp for how to
# build and run them. They link the PTX front end only, not NVRTC, so that a crash points at it.
option(TILECAMP_FUZZ "Build the libFuzzer targets in tests/fuzz (needs clang)" OFF)
if(NOT TILECAMP_FUZZ)
  return()
endif()
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "TILECAMP_FUZZ needs clang (libFuzzer): configure with "
                      "-DCMAKE_CXX_COMPILER=clang++ in a build folder of its own")
endif()

# The PTX front end has no library target of its own; globbing keeps this list from falling
# behind checker/CMakeLists.txt when a file is added there.
file(GLOB TILECAMP_PTX_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/checker/ptx/*.cpp)

set(TILECAMP_FUZZ_FLAGS -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer)
add_executable(fuzz_ptx_parser ${PROJECT_SOURCE_DIR}/tests/fuzz/fuzz_ptx_parser.cpp ${TILECAMP_PTX_SOURCES})
target_include_directories(fuzz_ptx_parser PRIVATE ${PROJECT_SOURCE_DIR})
target_compile_options(fuzz_ptx_parser PRIVATE ${TILECAMP_FUZZ_FLAGS})
target_link_options(fuzz_ptx_parser PRIVATE ${TILECAMP_FUZZ_FLAGS})
target_link_libraries(fuzz_ptx_parser PRIVATE tilecamp_warnings)
set_target_properties(fuzz_ptx_parser PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests/fuzz)

# include_policy against NVRTC: the policy's scan plus NVRTC itself as the oracle.
add_executable(fuzz_include_policy ${PROJECT_SOURCE_DIR}/tests/fuzz/fuzz_include_policy.cpp
               ${PROJECT_SOURCE_DIR}/checker/compile/include_policy.cpp ${PROJECT_SOURCE_DIR}/checker/compile/source_text.cpp)
target_include_directories(fuzz_include_policy PRIVATE ${PROJECT_SOURCE_DIR})
target_compile_options(fuzz_include_policy PRIVATE ${TILECAMP_FUZZ_FLAGS})
# --as-needed: CMake's CUDA::nvrtc names the driver's stub too, which clang would keep.
target_link_options(fuzz_include_policy PRIVATE ${TILECAMP_FUZZ_FLAGS} -Wl,--as-needed)
target_link_libraries(fuzz_include_policy PRIVATE CUDA::nvrtc fmt::fmt-header-only tilecamp_warnings)
set_target_properties(fuzz_include_policy PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests/fuzz)

# A fuzz build's CTest replays the seeds (and nothing else: no new inputs, no time spent).
if(TILECAMP_BUILD_TESTS)
  add_test(NAME "fuzz: the PTX parser survives its seed corpus"
           COMMAND fuzz_ptx_parser -runs=0 ${PROJECT_SOURCE_DIR}/tests/fuzz/corpus)
  add_test(NAME "fuzz: include_policy refuses every include NVRTC would open in its seed corpus"
           COMMAND fuzz_include_policy -runs=0 ${PROJECT_SOURCE_DIR}/tests/fuzz/include_corpus)
endif()
