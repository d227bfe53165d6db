#include <cuda_runtime.h>
void vendor() { cudaArrayGetPlane(0, 0, 0); }
