int n = 1'000'000;
#define C '/*'
#include "/tilecamp/probe.h"
// */
