// attack: a raw string whose delimiter NVRTC refuses (over 16 characters) is read as code, its #include too
// exercise: 01-vector-add
// expect: fail compile
const char* s = R"aaaaaaaaaaaaaaaaaaaaaaaaaaa(
#include "@CANARY@"
)aaaaaaaaaaaaaaaaaaaaaaaaaaa";
__global__ void vectorAdd(const float* a, const float* b, float* c, unsigned n) {}
