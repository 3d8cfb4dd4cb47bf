// attack: renumber the file so that findings name lines (and a file) the student chose
// exercise: 01-vector-add
// expect: fail compile
#line 1 "tilecamp-appended.cu"
__global__ void vectorAdd(const float* a, const float* b, float* c, unsigned n) { int x = ; }
