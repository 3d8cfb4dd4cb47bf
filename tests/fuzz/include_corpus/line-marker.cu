# 7 "/tilecamp/probe.h"
int x = ;
