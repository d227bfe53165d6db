/* cudaport: CUDA's <mma.h> warp matrix functions through AMD's rocWMMA. rocWMMA declares,
   in namespace rocwmma, the names nvcuda::wmma uses with the same meaning and argument
   order: fragment<Use, M, N, K, T, Layout>, matrix_a, matrix_b, accumulator, row_major,
   col_major, layout_t (mem_row_major, mem_col_major), fill_fragment(f, v),
   load_matrix_sync(f, p, ldm[, layout]), store_matrix_sync(p, f, ldm[, layout]),
   mma_sync(d, a, b, c), fragment::num_elements and fragment::x. nvcuda::wmma names that
   namespace here, so the code keeps its spelling. A fragment belongs to a wavefront
   (64 threads on CDNA, 32 on RDNA) where CUDA's belongs to a 32-thread warp, and each
   thread holds other elements of it than in CUDA. */
#include <rocwmma/rocwmma.hpp>
#ifndef CUDAPORT_NVCUDA_WMMA
#define CUDAPORT_NVCUDA_WMMA
namespace nvcuda { namespace wmma = ::rocwmma; }
#endif
