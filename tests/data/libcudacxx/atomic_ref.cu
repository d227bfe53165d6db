#include <cuda/atomic>
__global__ void k(int* x, float* f, unsigned long long* w, int i) {
  cuda::atomic_ref<int, cuda::thread_scope_device> r(x[i]);
  int old = r.fetch_add(1, cuda::memory_order_relaxed);
  r.store(old + 2, cuda::std::memory_order_release);
  int seen = r.load();
  int expected = seen;
  bool ok = r.compare_exchange_strong(expected, 7, cuda::memory_order_acq_rel);
  cuda::atomic_ref<float, cuda::thread_scope_block> g{f[0]};
  g.fetch_add(1.5f);
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_system> s(*w);
  s.fetch_max(5ull, cuda::memory_order_seq_cst);
  x[1] = old + seen + ok + (int)s.exchange(3ull);
  x[2] = (int)cuda::atomic_ref<unsigned int, cuda::thread_scope_device>{
             *reinterpret_cast<unsigned int*>(&x[3])}
             .load(cuda::memory_order_relaxed);
  cuda::atomic_ref<int, cuda::thread_scope_block>(x[4]).fetch_or(2);
}
