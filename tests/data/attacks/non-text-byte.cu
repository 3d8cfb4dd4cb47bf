// attack: a byte that is not text, on which NVRTC loses its way
// exercise: 01-vector-add
// expect: fail compile
__global__ void vectorAdd(const float* a, const float* b, float* c, unsigned n) { // ÿþ
}
