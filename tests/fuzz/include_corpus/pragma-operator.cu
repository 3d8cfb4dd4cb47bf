_Pragma("message(\"#include \\\"/tilecamp/probe.h\\\"\")")
#include "/tilecamp/probe.h"
