const char* s = R"sixteen_chars_ab(
#include "/tilecamp/probe.h"
)sixteen_chars_ab";
