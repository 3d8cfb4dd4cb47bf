const char* s = R"aaaaaaaaaaaaaaaaaaaaaaaaaaa(
#include "/tilecamp/probe.h"
)aaaaaaaaaaaaaaaaaaaaaaaaaaa";
