// Call-level test program for cuDNN: convolution, activation, softmax, pooling, tensor ops.
// (nvcc needs the cuDNN headers, e.g. from the nvidia-cudnn-cu13 wheel.)
#include <cuda_runtime.h>
#include <cudnn.h>

int dnn_calls(float *x, float *w, float *y, float *dy, float *dx, int n, int c, int h, int wd,
              cudaStream_t stream) {
  cudnnHandle_t handle;
  if (cudnnCreate(&handle) != CUDNN_STATUS_SUCCESS) return 1;
  cudnnSetStream(handle, stream);
  cudnnTensorDescriptor_t xDesc, yDesc;
  cudnnFilterDescriptor_t wDesc;
  cudnnConvolutionDescriptor_t convDesc;
  cudnnActivationDescriptor_t actDesc;
  cudnnPoolingDescriptor_t poolDesc;
  cudnnCreateTensorDescriptor(&xDesc);
  cudnnCreateTensorDescriptor(&yDesc);
  cudnnSetTensor4dDescriptor(xDesc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, c, h, wd);
  cudnnSetTensor4dDescriptor(yDesc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, c, h, wd);
  cudnnCreateFilterDescriptor(&wDesc);
  cudnnSetFilter4dDescriptor(wDesc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, c, c, 3, 3);
  cudnnCreateConvolutionDescriptor(&convDesc);
  cudnnSetConvolution2dDescriptor(convDesc, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                  CUDNN_DATA_FLOAT);
  int on, oc, oh, ow;
  cudnnGetConvolution2dForwardOutputDim(convDesc, xDesc, wDesc, &on, &oc, &oh, &ow);
  const float alpha = 1.0f, beta = 0.0f;
  size_t ws = 0;
  cudnnConvolutionFwdAlgo_t algo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
  cudnnGetConvolutionForwardWorkspaceSize(handle, xDesc, wDesc, convDesc, yDesc, algo, &ws);
  void *workspace;
  cudaMalloc(&workspace, ws);
  cudnnConvolutionForward(handle, &alpha, xDesc, x, wDesc, w, convDesc, algo, workspace, ws, &beta,
                          yDesc, y);
  // Backward passes: data and filter (MIOpen: weights) gradients, with their workspaces.
  float *dw = w;
  cudnnConvolutionBwdDataAlgo_t bd_algo = CUDNN_CONVOLUTION_BWD_DATA_ALGO_1;
  cudnnConvolutionBwdFilterAlgo_t bf_algo = CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1;
  size_t ws_bd = 0, ws_bf = 0;
  cudnnGetConvolutionBackwardDataWorkspaceSize(handle, wDesc, yDesc, convDesc, xDesc, bd_algo,
                                               &ws_bd);
  cudnnGetConvolutionBackwardFilterWorkspaceSize(handle, xDesc, yDesc, convDesc, wDesc, bf_algo,
                                                 &ws_bf);
  cudnnConvolutionBackwardData(handle, &alpha, wDesc, w, yDesc, dy, convDesc, bd_algo, workspace,
                               ws_bd, &beta, xDesc, dx);
  cudnnConvolutionBackwardFilter(handle, &alpha, xDesc, x, yDesc, dy, convDesc, bf_algo, workspace,
                                 ws_bf, &beta, wDesc, dw);
  cudnnConvolutionBackwardBias(handle, &alpha, yDesc, dy, &beta, yDesc, y);
  cudnnCreateActivationDescriptor(&actDesc);
  cudnnSetActivationDescriptor(actDesc, CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, 0.0);
  cudnnActivationForward(handle, actDesc, &alpha, xDesc, x, &beta, yDesc, y);
  cudnnActivationBackward(handle, actDesc, &alpha, yDesc, y, yDesc, dy, xDesc, x, &beta, xDesc, dx);
  cudnnSoftmaxForward(handle, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, &alpha, xDesc, x,
                      &beta, yDesc, y);
  cudnnSoftmaxBackward(handle, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, &alpha, yDesc, y,
                       yDesc, dy, &beta, xDesc, dx);
  cudnnCreatePoolingDescriptor(&poolDesc);
  cudnnSetPooling2dDescriptor(poolDesc, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 2, 2, 0, 0, 2, 2);
  cudnnPoolingForward(handle, poolDesc, &alpha, xDesc, x, &beta, yDesc, y);
  cudnnAddTensor(handle, &alpha, xDesc, x, &alpha, yDesc, y);
  const float beta0 = 0.0f;
  const float* stats = x;  // scale, bias, mean, variance: read-only in inference
  cudnnBatchNormalizationForwardInference(handle, CUDNN_BATCHNORM_SPATIAL, &alpha, &beta0,
                                          xDesc, x, yDesc, y, xDesc, stats, stats, stats,
                                          stats, 1e-5);
  cudnnBatchNormalizationForwardTraining(handle, CUDNN_BATCHNORM_SPATIAL, &alpha, &beta0,
                                         xDesc, x, yDesc, y, xDesc, stats, stats, 0.1, y, y,
                                         1e-5, y, y);
  cudnnDestroyPoolingDescriptor(poolDesc);
  cudnnDestroyActivationDescriptor(actDesc);
  cudnnDestroyConvolutionDescriptor(convDesc);
  cudnnDestroyFilterDescriptor(wDesc);
  cudnnDestroyTensorDescriptor(xDesc);
  cudnnDestroyTensorDescriptor(yDesc);
  cudnnDestroy(handle);
  cudaFree(workspace);
  return on + oc + oh + ow;
}
