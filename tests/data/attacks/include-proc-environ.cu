// attack: read the grader's environment (tokens, paths) through /proc
// exercise: 01-vector-add
// expect: fail compile
#define TEXT(x) #x
static_assert(0, TEXT(
#include "/proc/self/environ"
));
__global__ void vectorAdd(const float* a, const float* b, float* c, unsigned n) {}
