// Driver API: load a precompiled device-code module at run time, look up a kernel by name
// and launch it with cuLaunchKernel. The module file name comes from the command line.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda.h>

#define DRV_CHECK(call)                                                        \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      std::fprintf(stderr, "%s failed with code %d\n", #call, static_cast<int>(r_)); \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

int main(int argc, char** argv) {
  const char* module_path = argc > 1 ? argv[1] : "vector_scale.cubin";
  DRV_CHECK(cuInit(0));
  int count = 0;
  DRV_CHECK(cuDeviceGetCount(&count));
  if (count == 0) {
    std::puts("no device");
    return 0;
  }
  CUdevice device;
  DRV_CHECK(cuDeviceGet(&device, 0));
  char name[256];
  DRV_CHECK(cuDeviceGetName(name, sizeof(name), device));
  int major = 0;
  DRV_CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device));
  std::printf("device 0: %s (major %d)\n", name, major);

  CUcontext context;
  DRV_CHECK(cuCtxCreate(&context, 0, device));
  CUmodule module;
  DRV_CHECK(cuModuleLoad(&module, module_path));
  CUfunction kernel;
  DRV_CHECK(cuModuleGetFunction(&kernel, module, "vector_scale"));

  const int n = 1 << 20;
  std::vector<float> host(n, 1.0f);
  CUdeviceptr buffer;
  DRV_CHECK(cuMemAlloc(&buffer, n * sizeof(float)));
  DRV_CHECK(cuMemcpyHtoD(buffer, host.data(), n * sizeof(float)));

  float factor = 3.0f;
  int length = n;
  void* args[] = {&buffer, &factor, &length};
  CUstream stream;
  DRV_CHECK(cuStreamCreate(&stream, CU_STREAM_DEFAULT));
  DRV_CHECK(cuLaunchKernel(kernel, (n + 255) / 256, 1, 1, 256, 1, 1, 0, stream, args, nullptr));
  DRV_CHECK(cuStreamSynchronize(stream));
  DRV_CHECK(cuMemcpyDtoH(host.data(), buffer, n * sizeof(float)));
  std::printf("host[0] = %.1f\n", host[0]);

  DRV_CHECK(cuStreamDestroy(stream));
  DRV_CHECK(cuMemFree(buffer));
  DRV_CHECK(cuModuleUnload(module));
  DRV_CHECK(cuCtxDestroy(context));
  return 0;
}
