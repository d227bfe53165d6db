// Driver API: load a precompiled device-code module at run time, look up a kernel by name
// and launch it with cuLaunchKernel. The module file name comes from the command line.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <hip/hip_runtime.h>

#define DRV_CHECK(call)                                                        \
  do {                                                                         \
    hipError_t r_ = (call);                                                      \
    if (r_ != hipSuccess) {                                                  \
      std::fprintf(stderr, "%s failed with code %d\n", #call, static_cast<int>(r_)); \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

int main(int argc, char** argv) {
  const char* module_path = argc > 1 ? argv[1] : "vector_scale.cubin";
  DRV_CHECK(hipInit(0));
  int count = 0;
  DRV_CHECK(hipGetDeviceCount(&count));
  if (count == 0) {
    std::puts("no device");
    return 0;
  }
  hipDevice_t device;
  DRV_CHECK(hipDeviceGet(&device, 0));
  char name[256];
  DRV_CHECK(hipDeviceGetName(name, sizeof(name), device));
  int major = 0;
  DRV_CHECK(hipDeviceGetAttribute(&major, hipDeviceAttributeComputeCapabilityMajor, device));
  std::printf("device 0: %s (major %d)\n", name, major);

  hipCtx_t context;
  DRV_CHECK(hipCtxCreate(&context, 0, device));
  hipModule_t module;
  DRV_CHECK(hipModuleLoad(&module, module_path));
  hipFunction_t kernel;
  DRV_CHECK(hipModuleGetFunction(&kernel, module, "vector_scale"));

  const int n = 1 << 20;
  std::vector<float> host(n, 1.0f);
  hipDeviceptr_t buffer;
  DRV_CHECK(hipMalloc(&buffer, n * sizeof(float)));
  DRV_CHECK(hipMemcpyHtoD(buffer, host.data(), n * sizeof(float)));

  float factor = 3.0f;
  int length = n;
  void* args[] = {&buffer, &factor, &length};
  hipStream_t stream;
  DRV_CHECK(hipStreamCreateWithFlags(&stream, hipStreamDefault));
  DRV_CHECK(hipModuleLaunchKernel(kernel, (n + 255) / 256, 1, 1, 256, 1, 1, 0, stream, args, nullptr));
  DRV_CHECK(hipStreamSynchronize(stream));
  DRV_CHECK(hipMemcpyDtoH(host.data(), buffer, n * sizeof(float)));
  std::printf("host[0] = %.1f\n", host[0]);

  DRV_CHECK(hipStreamDestroy(stream));
  DRV_CHECK(hipFree(buffer));
  DRV_CHECK(hipModuleUnload(module));
  DRV_CHECK(hipCtxDestroy(context));
  return 0;
}
