from setuptools import setup
from torch_musa.utils.musa_extension import BuildExtension, MUSAExtension

nvcc_flags = ["-O3", "--use_fast_math", "-gencode=arch=compute_80,code=sm_80"]
nvcc_flags += ["--expt-relaxed-constexpr", "-Xptxas=-v"]

setup(
    name="scale_op",
    ext_modules=[
        MUSAExtension(
            name="scale_op._C",
            sources=["scale_op/binding.cpp", "scale_op/scale_kernel.cu"],
            extra_compile_args={"cxx": ["-O3"], "mcc": nvcc_flags},
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
