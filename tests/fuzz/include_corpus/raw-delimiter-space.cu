const char* s = R"a b(
#include "/tilecamp/probe.h"
)a b";
