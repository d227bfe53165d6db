/* cudaport: HIP before 7.13 has no <cooperative_groups/reduce.h>; these definitions stand
   in for the part CUDA code uses: cg::reduce over a tile or coalesced group, and its
   function objects. Every thread of the group gets the result, as in CUDA. */
#include <hip/hip_cooperative_groups.h>
#ifndef CUDAPORT_COOPERATIVE_GROUPS_REDUCE
#define CUDAPORT_COOPERATIVE_GROUPS_REDUCE
#include <type_traits>
namespace cooperative_groups {
template <class T> struct plus {
  __host__ __device__ T operator()(const T& a, const T& b) const { return a + b; }
};
template <class T> struct less {  /* the smaller of the two */
  __host__ __device__ T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <class T> struct greater {  /* the larger of the two */
  __host__ __device__ T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <class T> struct bit_and {
  __host__ __device__ T operator()(const T& a, const T& b) const { return a & b; }
};
template <class T> struct bit_or {
  __host__ __device__ T operator()(const T& a, const T& b) const { return a | b; }
};
template <class T> struct bit_xor {
  __host__ __device__ T operator()(const T& a, const T& b) const { return a ^ b; }
};
/* Rank r ends step k holding ranks [r, r + 2^k) combined in rank order, so rank 0 holds
   the whole group after log2(size) steps (any size, any associative op); then it is
   broadcast. */
template <class Group, class T, class Op>
__device__ inline typename std::decay<T>::type reduce(const Group& group, T&& value, Op&& op) {
  typename std::decay<T>::type v = value;
  const unsigned n = group.size(), rank = group.thread_rank();
  for (unsigned offset = 1; offset < n; offset *= 2) {
    typename std::decay<T>::type other = group.shfl_down(v, offset);
    if (rank + offset < n) v = op(v, other);
  }
  return group.shfl(v, 0);
}
}  // namespace cooperative_groups
#endif
