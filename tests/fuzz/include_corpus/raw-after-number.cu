const char* s = 1R"x(
#include "/tilecamp/probe.h"
)x";
