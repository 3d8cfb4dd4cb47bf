// Baseline of 11-tensor-gemm: lesson 5's naive SGEMM, one thread per element of C, launched as
// blocks of 16 x 16 threads. It loads both operands of every multiply-add from global memory.
// The course's FP32 SGEMMs are timed against it too (bench/tensor_gemm_gpu.sh), so that "faster
// than any FP32 kernel of the course" is one threshold on one baseline.

__global__ void sgemmNaive(const float* A, const float* B, float* C, int M, int N, int K) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;  // lanes: along a row
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    float sum = 0.0f;
    for (int k = 0; k < K; ++k) {
      sum += A[row * K + k] * B[k * N + col];
    }
    C[row * N + col] = sum;
  }
}
