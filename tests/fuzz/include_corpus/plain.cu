#include "/tilecamp/probe.h"
