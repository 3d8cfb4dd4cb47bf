#define Q x'/*'
#include "/tilecamp/probe.h"
// */
