// attack: an #include inside a stringizing macro's argument, quoted back by a static_assert message
// exercise: 01-vector-add
// expect: fail compile
#define TEXT(x) #x
static_assert(0, TEXT(
#include "@CANARY@"
));
__global__ void vectorAdd(const float* a, const float* b, float* c, unsigned n) {}
