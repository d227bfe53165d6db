// Call-level test program for cuSPARSE: generic SpMV/SpMM, and triangular solve with
// solve policies (csrsv2/ilu02-style, deprecated in CUDA 12 but removed only from the
// legacy csrsv/ilu0 APIs in CUDA 13: the generic SpSV replaces them).
#include <cuda_runtime.h>
#include <cusparse.h>

int sparse_calls(int m, int nnz, int *rowPtr, int *colInd, float *values, float *x, float *y,
                 float *B, float *C, cudaStream_t stream) {
  cusparseHandle_t handle;
  if (cusparseCreate(&handle) != CUSPARSE_STATUS_SUCCESS) return 1;
  cusparseSetStream(handle, stream);
  cusparseSpMatDescr_t matA;
  cusparseDnVecDescr_t vecX, vecY;
  cusparseDnMatDescr_t matB, matC;
  cusparseCreateCsr(&matA, m, m, nnz, rowPtr, colInd, values, CUSPARSE_INDEX_32I,
                    CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
  cusparseCreateDnVec(&vecX, m, x, CUDA_R_32F);
  cusparseCreateDnVec(&vecY, m, y, CUDA_R_32F);
  cusparseCreateDnMat(&matB, m, 4, m, B, CUDA_R_32F, CUSPARSE_ORDER_COL);
  cusparseCreateDnMat(&matC, m, 4, m, C, CUDA_R_32F, CUSPARSE_ORDER_COL);
  float alpha = 1.0f, beta = 0.0f;
  size_t size = 0;
  void *buffer;
  cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, vecX, &beta, vecY,
                          CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &size);
  cudaMalloc(&buffer, size);
  cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, vecX, &beta, vecY, CUDA_R_32F,
               CUSPARSE_SPMV_ALG_DEFAULT, buffer);
  cusparseSpMM_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                          &alpha, matA, matB, &beta, matC, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT,
                          &size);
  cusparseSpMM(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
               matA, matB, &beta, matC, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, buffer);
  // Triangular solve (generic API)
  cusparseSpSVDescr_t spsv;
  cusparseSpSV_createDescr(&spsv);
  cusparseFillMode_t fill = CUSPARSE_FILL_MODE_LOWER;
  cusparseSpMatSetAttribute(matA, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof(fill));
  cusparseSpSV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, vecX, vecY,
                          CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, spsv, &size);
  cusparseSpSV_analysis(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, vecX, vecY,
                        CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, spsv, buffer);
  cusparseSpSV_solve(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, vecX, vecY, CUDA_R_32F,
                     CUSPARSE_SPSV_ALG_DEFAULT, spsv);
  cusparseSpSV_destroyDescr(spsv);
  // Legacy matrix descriptor
  cusparseMatDescr_t descr;
  cusparseCreateMatDescr(&descr);
  cusparseSetMatType(descr, CUSPARSE_MATRIX_TYPE_GENERAL);
  cusparseSetMatIndexBase(descr, CUSPARSE_INDEX_BASE_ZERO);
  // Incomplete LU with solve policies (deprecated, still in CUDA 13)
  csrilu02Info_t ilu;
  cusparseCreateCsrilu02Info(&ilu);
  int ilu_size = 0, zero_pivot = 0;
  cusparseScsrilu02_bufferSize(handle, m, nnz, descr, values, rowPtr, colInd, ilu, &ilu_size);
  cusparseScsrilu02_analysis(handle, m, nnz, descr, values, rowPtr, colInd, ilu,
                             CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer);
  cusparseXcsrilu02_zeroPivot(handle, ilu, &zero_pivot);
  cusparseScsrilu02(handle, m, nnz, descr, values, rowPtr, colInd, ilu,
                    CUSPARSE_SOLVE_POLICY_NO_LEVEL, buffer);
  cusparseDestroyCsrilu02Info(ilu);
  cusparseDestroyMatDescr(descr);
  // Conversions
  cusparseXcoo2csr(handle, colInd, nnz, m, rowPtr, CUSPARSE_INDEX_BASE_ZERO);
  cusparseDestroySpMat(matA);
  cusparseDestroyDnVec(vecX);
  cusparseDestroyDnVec(vecY);
  cusparseDestroyDnMat(matB);
  cusparseDestroyDnMat(matC);
  cusparseDestroy(handle);
  cudaFree(buffer);
  return 0;
}
