// y = alpha * A * x + beta * y for a CSR matrix with cuSPARSE's generic API
// (sparse-matrix and dense-vector descriptors, a work buffer sized by the library).
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include <cusparse.h>

#define CHECK_CUSPARSE(call)                                                  \
  do {                                                                        \
    cusparseStatus_t st = (call);                                             \
    if (st != CUSPARSE_STATUS_SUCCESS) {                                      \
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
  cudaMalloc(&d_row, (rows + 1) * sizeof(int));
  cudaMalloc(&d_col, nnz * sizeof(int));
  cudaMalloc(&d_val, nnz * sizeof(float));
  cudaMalloc(&d_x, cols * sizeof(float));
  cudaMalloc(&d_y, rows * sizeof(float));
  cudaMemcpy(d_row, row_ptr.data(), (rows + 1) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_col, col_ind.data(), nnz * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_val, values.data(), nnz * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_x, x.data(), cols * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_y, y.data(), rows * sizeof(float), cudaMemcpyHostToDevice);

  cusparseHandle_t handle;
  cusparseSpMatDescr_t mat;
  cusparseDnVecDescr_t vec_x, vec_y;
  CHECK_CUSPARSE(cusparseCreate(&handle));
  CHECK_CUSPARSE(cusparseCreateCsr(&mat, rows, cols, nnz, d_row, d_col, d_val,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  CHECK_CUSPARSE(cusparseCreateDnVec(&vec_x, cols, d_x, CUDA_R_32F));
  CHECK_CUSPARSE(cusparseCreateDnVec(&vec_y, rows, d_y, CUDA_R_32F));

  const float alpha = 1.0f, beta = 0.0f;
  size_t buffer_size = 0;
  CHECK_CUSPARSE(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mat,
                                         vec_x, &beta, vec_y, CUDA_R_32F,
                                         CUSPARSE_SPMV_ALG_DEFAULT, &buffer_size));
  void* buffer = nullptr;
  cudaMalloc(&buffer, buffer_size);
  CHECK_CUSPARSE(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mat, vec_x,
                              &beta, vec_y, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer));
  cudaMemcpy(y.data(), d_y, rows * sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("y = [%g %g %g %g]\n", y[0], y[1], y[2], y[3]);

  CHECK_CUSPARSE(cusparseDestroyDnVec(vec_x));
  CHECK_CUSPARSE(cusparseDestroyDnVec(vec_y));
  CHECK_CUSPARSE(cusparseDestroySpMat(mat));
  CHECK_CUSPARSE(cusparseDestroy(handle));
  cudaFree(buffer);
  cudaFree(d_row);
  cudaFree(d_col);
  cudaFree(d_val);
  cudaFree(d_x);
  cudaFree(d_y);
  return 0;
}
