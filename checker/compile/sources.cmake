set(TILECAMP_COMPILE_SOURCES compile/nvrtc_compiler.cpp compile/builtin_headers.cpp compile/nvrtc_log.cpp compile/include_policy.cpp compile/source_text.cpp)
