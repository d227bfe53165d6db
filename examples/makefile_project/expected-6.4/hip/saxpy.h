#ifndef SAXPY_H
#define SAXPY_H
#ifdef __cplusplus
extern "C" {
#endif
/* y = a * x + y on the GPU; returns 0 on success. */
int saxpy_gpu(int n, float a, const float* x, float* y);
#ifdef __cplusplus
}
#endif
#endif
