%:include "/tilecamp/probe.h"
