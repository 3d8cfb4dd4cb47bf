// attack: a quote after a name, which a naive scan takes for a digit separator, hides an #include in a "comment"
// exercise: 01-vector-add
// expect: fail compile
#define Q x'/*'
#include "@CANARY@"
// */
__global__ void vectorAdd(const float* a, const float* b, float* c, unsigned n) {}
