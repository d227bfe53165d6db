// y = alpha * A * x + beta * y for a CSR matrix with cuSPARSE's generic API
// (sparse-matrix and dense-vector descriptors, a work buffer sized by the library).
#include <cstdio>
#include <vector>
#include <hip/hip_runtime.h>
#include <hipsparse/hipsparse.h>

#define CHECK_CUSPARSE(call)                                                  \
  do {                                                                        \
    hipsparseStatus_t st = (call);                                             \
    if (st != HIPSPARSE_STATUS_SUCCESS) {                                      \
      std::printf("cuSPARSE error %d at line %d\n", static_cast<int>(st), __LINE__); \
      return 1;                                                               \
    }                                                                         \
  } while (0)

int main() {
  // 4x4 tridiagonal matrix.
  const int rows = 4, cols = 4, nnz = 10;
  std::vector<int> row_ptr = {0, 2, 5, 8, 10};
  std::vector<int> col_ind = {0, 1, 0, 1, 2, 1, 2, 3, 2, 3};
  std::vector<float> values = {2, -1, -1, 2, -1, -1, 2, -1, -1, 2};
  std::vector<float> x = {1, 1, 1, 1}, y(rows, 0.0f);

  int *d_row, *d_col;
  float *d_val, *d_x, *d_y;
  hipMalloc(&d_row, (rows + 1) * sizeof(int));
  hipMalloc(&d_col, nnz * sizeof(int));
  hipMalloc(&d_val, nnz * sizeof(float));
  hipMalloc(&d_x, cols * sizeof(float));
  hipMalloc(&d_y, rows * sizeof(float));
  hipMemcpy(d_row, row_ptr.data(), (rows + 1) * sizeof(int), hipMemcpyHostToDevice);
  hipMemcpy(d_col, col_ind.data(), nnz * sizeof(int), hipMemcpyHostToDevice);
  hipMemcpy(d_val, values.data(), nnz * sizeof(float), hipMemcpyHostToDevice);
  hipMemcpy(d_x, x.data(), cols * sizeof(float), hipMemcpyHostToDevice);
  hipMemcpy(d_y, y.data(), rows * sizeof(float), hipMemcpyHostToDevice);

  hipsparseHandle_t handle;
  hipsparseSpMatDescr_t mat;
  hipsparseDnVecDescr_t vec_x, vec_y;
  CHECK_CUSPARSE(hipsparseCreate(&handle));
  CHECK_CUSPARSE(hipsparseCreateCsr(&mat, rows, cols, nnz, d_row, d_col, d_val,
                                   HIPSPARSE_INDEX_32I, HIPSPARSE_INDEX_32I,
                                   HIPSPARSE_INDEX_BASE_ZERO, HIP_R_32F));
  CHECK_CUSPARSE(hipsparseCreateDnVec(&vec_x, cols, d_x, HIP_R_32F));
  CHECK_CUSPARSE(hipsparseCreateDnVec(&vec_y, rows, d_y, HIP_R_32F));

  const float alpha = 1.0f, beta = 0.0f;
  size_t buffer_size = 0;
  CHECK_CUSPARSE(hipsparseSpMV_bufferSize(handle, HIPSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mat,
                                         vec_x, &beta, vec_y, HIP_R_32F,
                                         HIPSPARSE_SPMV_ALG_DEFAULT, &buffer_size));
  void* buffer = nullptr;
  hipMalloc(&buffer, buffer_size);
  CHECK_CUSPARSE(hipsparseSpMV(handle, HIPSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mat, vec_x,
                              &beta, vec_y, HIP_R_32F, HIPSPARSE_SPMV_ALG_DEFAULT, buffer));
  hipMemcpy(y.data(), d_y, rows * sizeof(float), hipMemcpyDeviceToHost);
  std::printf("y = [%g %g %g %g]\n", y[0], y[1], y[2], y[3]);

  CHECK_CUSPARSE(hipsparseDestroyDnVec(vec_x));
  CHECK_CUSPARSE(hipsparseDestroyDnVec(vec_y));
  CHECK_CUSPARSE(hipsparseDestroySpMat(mat));
  CHECK_CUSPARSE(hipsparseDestroy(handle));
  hipFree(buffer);
  hipFree(d_row);
  hipFree(d_col);
  hipFree(d_val);
  hipFree(d_x);
  hipFree(d_y);
  return 0;
}
