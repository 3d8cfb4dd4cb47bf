#inc\
lude "/tilecamp/probe.h"
