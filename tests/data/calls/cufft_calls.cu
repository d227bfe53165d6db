// Call-level test program for cuFFT.
#include <cuda_runtime.h>
#include <cufft.h>

int fft_calls(cufftComplex *c, cufftReal *r, cufftDoubleComplex *z, int nx, int ny, int batch,
              cudaStream_t stream) {
  cufftHandle plan1d, plan2d, planr2c, planmany, planz;
  if (cufftPlan1d(&plan1d, nx, CUFFT_C2C, batch) != CUFFT_SUCCESS) return 1;
  cufftPlan2d(&plan2d, nx, ny, CUFFT_C2C);
  cufftPlan1d(&planr2c, nx, CUFFT_R2C, 1);
  int n[1] = {nx};
  cufftPlanMany(&planmany, 1, n, nullptr, 1, nx, nullptr, 1, nx, CUFFT_C2C, batch);
  cufftPlan1d(&planz, nx, CUFFT_Z2Z, 1);
  cufftSetStream(plan1d, stream);
  cufftExecC2C(plan1d, c, c, CUFFT_FORWARD);
  cufftExecC2C(plan2d, c, c, CUFFT_INVERSE);
  cufftExecR2C(planr2c, r, c);
  cufftExecZ2Z(planz, z, z, CUFFT_FORWARD);
  cufftHandle planc2r;
  size_t work = 0;
  cufftCreate(&planc2r);
  cufftSetAutoAllocation(planc2r, 0);
  cufftMakePlan1d(planc2r, nx, CUFFT_C2R, 1, &work);
  cufftGetSize(planc2r, &work);
  void *area;
  cudaMalloc(&area, work);
  cufftSetWorkArea(planc2r, area);
  cufftExecC2R(planc2r, c, r);
  int version = 0;
  cufftGetVersion(&version);
  cufftDestroy(plan1d);
  cufftDestroy(plan2d);
  cufftDestroy(planr2c);
  cufftDestroy(planmany);
  cufftDestroy(planz);
  cufftDestroy(planc2r);
  cudaFree(area);
  return version > 0 ? 0 : 1;
}
