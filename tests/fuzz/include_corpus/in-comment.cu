/* a comment
#include "/tilecamp/probe.h"
*/ __global__ void k() {}
