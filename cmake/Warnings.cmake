# One place for the warning flags every target of tilecamp uses.
add_library(tilecamp_warnings INTERFACE)
target_compile_options(tilecamp_warnings INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic -Wshadow -Wno-missing-field-initializers>)
