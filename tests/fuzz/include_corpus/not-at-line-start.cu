#define EMPTY
EMPTY #include "/tilecamp/probe.h"
