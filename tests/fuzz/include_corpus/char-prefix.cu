int m = 0x1'2;
char c = u8'/';
#include "/tilecamp/probe.h"
