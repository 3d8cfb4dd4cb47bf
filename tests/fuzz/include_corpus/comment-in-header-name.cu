#include <cuda_fp16.h/*>
#include "/tilecamp/probe.h"
// */
