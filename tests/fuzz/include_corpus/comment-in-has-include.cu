#if __has_include(<x/*>)
#endif
#include "/tilecamp/probe.h"
// */
