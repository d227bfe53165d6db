// Complex arithmetic with cuComplex: rotate a signal by a phasor, multiply two spectra
// point-wise and compute magnitudes, in single and double precision.
#include <cmath>
#include <cstdio>
#include <vector>
#include <hip/hip_complex.h>
#include <hip/hip_runtime.h>

__global__ void rotate(hipFloatComplex* v, int n, float angle) {
  const hipFloatComplex phasor = make_hipFloatComplex(cosf(angle), sinf(angle));
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = hipCmulf(v[i], phasor);
}

__global__ void multiply_conj(const hipDoubleComplex* a, const hipDoubleComplex* b,
                              hipDoubleComplex* out, double* magnitude, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  hipDoubleComplex p = hipCmul(a[i], hipConj(b[i]));
  out[i] = hipCadd(p, make_hipDoubleComplex(hipCreal(a[i]) * 1e-3, 0.0));
  magnitude[i] = hipCabs(out[i]);
}

int main() {
  const int n = 4096;
  std::vector<hipFloatComplex> hf(n);
  std::vector<hipDoubleComplex> ha(n), hb(n);
  for (int i = 0; i < n; ++i) {
    hf[i] = make_hipFloatComplex(1.0f, 0.0f);
    ha[i] = make_hipDoubleComplex(std::cos(0.01 * i), std::sin(0.01 * i));
    hb[i] = make_hipDoubleComplex(0.5, -0.25);
  }
  hipFloatComplex* df;
  hipDoubleComplex *da, *db, *dout;
  double* dmag;
  hipMalloc(&df, n * sizeof(hipFloatComplex));
  hipMalloc(&da, n * sizeof(hipDoubleComplex));
  hipMalloc(&db, n * sizeof(hipDoubleComplex));
  hipMalloc(&dout, n * sizeof(hipDoubleComplex));
  hipMalloc(&dmag, n * sizeof(double));
  hipMemcpy(df, hf.data(), n * sizeof(hipFloatComplex), hipMemcpyHostToDevice);
  hipMemcpy(da, ha.data(), n * sizeof(hipDoubleComplex), hipMemcpyHostToDevice);
  hipMemcpy(db, hb.data(), n * sizeof(hipDoubleComplex), hipMemcpyHostToDevice);

  rotate<<<(n + 127) / 128, 128>>>(df, n, 0.25f);
  multiply_conj<<<(n + 127) / 128, 128>>>(da, db, dout, dmag, n);

  std::vector<double> mag(n);
  hipMemcpy(hf.data(), df, n * sizeof(hipFloatComplex), hipMemcpyDeviceToHost);
  hipMemcpy(mag.data(), dmag, n * sizeof(double), hipMemcpyDeviceToHost);
  std::printf("rotated: (%f, %f) |p0| = %f, |1 + 2i| = %f\n", hipCrealf(hf[0]), hipCimagf(hf[0]),
              mag[0], hipCabsf(make_hipFloatComplex(1.0f, 2.0f)));
  hipFree(df);
  hipFree(da);
  hipFree(db);
  hipFree(dout);
  hipFree(dmag);
  return 0;
}
