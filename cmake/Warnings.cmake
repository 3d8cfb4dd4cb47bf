# One place for the warning flags every target of tilecamp uses.
add_library(tilecamp_warnings INTERFACE)
target_compile_options(tilecamp_warnings INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic -Wshadow -Wno-missing-field-initializers>)
# GCC 12 at -O3 warns -Wrestrict inside std::string's own operator+ (GCC bug 105329): noise that
# would bury real warnings in the Release build.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12
   AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(tilecamp_warnings INTERFACE -Wno-restrict)
endif()
