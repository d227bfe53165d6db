#include <cuda_runtime.h>
void clean(float* p) { cudaFree(p); }
