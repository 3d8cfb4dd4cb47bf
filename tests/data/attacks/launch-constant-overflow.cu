// attack: launch constants at the ends of a 64-bit integer, so that the grid's arithmetic overflows
// exercise: 02-transpose-tiled
// expect: fail correctness
#define TILE_DIM (-9223372036854775807LL - 1)
#define BLOCK_ROWS (-1)
__global__ void transposeTiled(const float* in, float* out, int width, int height) {}
