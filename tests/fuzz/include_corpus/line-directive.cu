#line 1 "/tilecamp/probe.h"
int x = ;
