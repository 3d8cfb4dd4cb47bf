// attack: a macro that doubles itself 128 times over: the preprocessor would need more time and memory than any machine has
// exercise: 01-vector-add
// expect: fail time-limit
// time-limit: 3
#define A0(x) x x
#define A1(x) A0(A0(x))
#define A2(x) A1(A1(x))
#define A3(x) A2(A2(x))
#define A4(x) A3(A3(x))
#define A5(x) A4(A4(x))
#define A6(x) A5(A5(x))
#define A7(x) A6(A6(x))
__device__ int f() { return A7(1+) 0; }
__global__ void vectorAdd(const float* a, const float* b, float* c, unsigned n) {}
