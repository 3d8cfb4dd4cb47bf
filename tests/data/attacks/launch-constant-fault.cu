// attack: a launch constant whose value faults when the checker reads it
// exercise: 02-transpose-tiled
// expect: fail compile
#define TILE_DIM (*(volatile long long*)0)
#define BLOCK_ROWS 8
__global__ void transposeTiled(const float* in, float* out, int width, int height) {}
