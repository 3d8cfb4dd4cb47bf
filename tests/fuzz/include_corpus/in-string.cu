const char* s = "#include \"/tilecamp/probe.h\"";
__global__ void k() {}
