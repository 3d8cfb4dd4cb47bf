// attack: template instantiation a million levels deep, to exhaust the compiler
// exercise: 01-vector-add
// expect: fail compile
template <int N> struct Deep { static constexpr int value = Deep<N - 1>::value + 1; };
template <> struct Deep<0> { static constexpr int value = 0; };
__global__ void vectorAdd(const float* a, const float* b, float* c, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i] + Deep<1000000>::value;
}
