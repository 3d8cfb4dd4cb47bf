#define H __has_include
#if H("/tilecamp/probe.h")
#error has
#endif
