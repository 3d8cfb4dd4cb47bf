__global__ void k(float* a) { a[0] = 1.0f; }
