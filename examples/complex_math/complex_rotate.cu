// Complex arithmetic with cuComplex: rotate a signal by a phasor, multiply two spectra
// point-wise and compute magnitudes, in single and double precision.
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuComplex.h>
#include <cuda_runtime.h>

__global__ void rotate(cuFloatComplex* v, int n, float angle) {
  const cuFloatComplex phasor = make_cuFloatComplex(cosf(angle), sinf(angle));
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = cuCmulf(v[i], phasor);
}

__global__ void multiply_conj(const cuDoubleComplex* a, const cuDoubleComplex* b,
                              cuDoubleComplex* out, double* magnitude, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  cuDoubleComplex p = cuCmul(a[i], cuConj(b[i]));
  out[i] = cuCadd(p, make_cuDoubleComplex(cuCreal(a[i]) * 1e-3, 0.0));
  magnitude[i] = cuCabs(out[i]);
}

int main() {
  const int n = 4096;
  std::vector<cuFloatComplex> hf(n);
  std::vector<cuDoubleComplex> ha(n), hb(n);
  for (int i = 0; i < n; ++i) {
    hf[i] = make_cuFloatComplex(1.0f, 0.0f);
    ha[i] = make_cuDoubleComplex(std::cos(0.01 * i), std::sin(0.01 * i));
    hb[i] = make_cuDoubleComplex(0.5, -0.25);
  }
  cuFloatComplex* df;
  cuDoubleComplex *da, *db, *dout;
  double* dmag;
  cudaMalloc(&df, n * sizeof(cuFloatComplex));
  cudaMalloc(&da, n * sizeof(cuDoubleComplex));
  cudaMalloc(&db, n * sizeof(cuDoubleComplex));
  cudaMalloc(&dout, n * sizeof(cuDoubleComplex));
  cudaMalloc(&dmag, n * sizeof(double));
  cudaMemcpy(df, hf.data(), n * sizeof(cuFloatComplex), cudaMemcpyHostToDevice);
  cudaMemcpy(da, ha.data(), n * sizeof(cuDoubleComplex), cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb.data(), n * sizeof(cuDoubleComplex), cudaMemcpyHostToDevice);

  rotate<<<(n + 127) / 128, 128>>>(df, n, 0.25f);
  multiply_conj<<<(n + 127) / 128, 128>>>(da, db, dout, dmag, n);

  std::vector<double> mag(n);
  cudaMemcpy(hf.data(), df, n * sizeof(cuFloatComplex), cudaMemcpyDeviceToHost);
  cudaMemcpy(mag.data(), dmag, n * sizeof(double), cudaMemcpyDeviceToHost);
  std::printf("rotated: (%f, %f) |p0| = %f, |1 + 2i| = %f\n", cuCrealf(hf[0]), cuCimagf(hf[0]),
              mag[0], cuCabsf(make_cuFloatComplex(1.0f, 2.0f)));
  cudaFree(df);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dout);
  cudaFree(dmag);
  return 0;
}
