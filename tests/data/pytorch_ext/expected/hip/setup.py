from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

nvcc_flags = ["-O3", "--use_fast_math", "-gencode=arch=compute_80,code=sm_80"]
nvcc_flags += ["--expt-relaxed-constexpr", "-Xptxas=-v"]

setup(
    name="scale_op",
    ext_modules=[
        CUDAExtension(
            name="scale_op._C",
            sources=["scale_op/binding.cpp", "scale_op/scale_kernel.cu"],
            extra_compile_args={"cxx": ["-O3"], "nvcc": nvcc_flags},
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
