#define S(x) #x
static_assert(0, S(
#include "/tilecamp/probe.h"
));
