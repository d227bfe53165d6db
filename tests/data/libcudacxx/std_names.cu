// Every name of rules/hip/libcudacxx-std.txt, used in device code (CUDA 13 with libcu++).
#include <cuda/std/array>
#include <cuda/std/cfloat>
#include <cuda/std/climits>
#include <cuda/std/cmath>
#include <cuda/std/cstddef>
#include <cuda/std/cstdint>
#include <cuda/std/functional>
#include <cuda/std/limits>
#include <cuda/std/optional>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

enum class E : cuda::std::uint8_t { a };
struct B {};
struct D : B {};

template <class T, cuda::std::enable_if_t<cuda::std::is_integral_v<T>, int> = 0>
__device__ T twice(T x) { return cuda::std::plus<T>()(x, x); }

template <class... Ts>
__device__ cuda::std::size_t count(Ts&&... xs) {
  auto t = cuda::std::make_tuple(cuda::std::forward<Ts>(xs)...);
  return cuda::std::tuple_size<decltype(t)>::value + sizeof(cuda::std::index_sequence_for<Ts...>);
}

template <cuda::std::size_t... I>
__device__ int sum(cuda::std::index_sequence<I...>) { return (0 + ... + int(I)); }

__global__ void k(float* f, int* i, double* d) {
  static_assert(cuda::std::is_same<int, cuda::std::remove_cv_t<const int>>::value, "");
  static_assert(cuda::std::is_same_v<cuda::std::decay_t<const int&>, int>, "");
  static_assert(cuda::std::conditional_t<true, cuda::std::true_type, cuda::std::false_type>::value, "");
  static_assert(cuda::std::integral_constant<int, 2>::value == 2, "");
  static_assert(cuda::std::bool_constant<true>::value, "");
  static_assert(cuda::std::is_floating_point_v<float> && cuda::std::is_arithmetic_v<int>, "");
  static_assert(cuda::std::is_signed_v<int> && cuda::std::is_unsigned_v<unsigned>, "");
  static_assert(cuda::std::is_pointer_v<int*> && cuda::std::is_reference_v<int&>, "");
  static_assert(cuda::std::is_const_v<const int> && cuda::std::is_void_v<void>, "");
  static_assert(cuda::std::is_enum_v<E> && cuda::std::is_class_v<B>, "");
  static_assert(cuda::std::is_trivially_copyable_v<B> && cuda::std::is_convertible_v<int, long>, "");
  static_assert(cuda::std::is_base_of_v<B, D>, "");
  static_assert(cuda::std::is_same_v<cuda::std::make_signed_t<unsigned>, int>, "");
  static_assert(cuda::std::is_same_v<cuda::std::make_unsigned_t<int>, unsigned>, "");
  static_assert(cuda::std::is_same_v<cuda::std::common_type_t<int, long>, long>, "");
  static_assert(cuda::std::is_same_v<cuda::std::underlying_type_t<E>, cuda::std::uint8_t>, "");
  static_assert(cuda::std::is_same_v<cuda::std::void_t<int>, void>, "");
  static_assert(cuda::std::conjunction_v<cuda::std::true_type> && cuda::std::disjunction_v<cuda::std::true_type>, "");
  static_assert(cuda::std::negation_v<cuda::std::false_type>, "");
  static_assert(cuda::std::is_invocable_v<cuda::std::plus<int>, int, int> &&
                cuda::std::is_invocable<cuda::std::plus<int>, int, int>::value, "");
  static_assert(cuda::std::is_invocable_r_v<long, cuda::std::plus<int>, int, int> &&
                cuda::std::is_invocable_r<long, cuda::std::plus<int>, int, int>::value, "");
  static_assert(cuda::std::is_same_v<cuda::std::invoke_result_t<cuda::std::plus<int>, int, int>, int> &&
                cuda::std::is_same_v<cuda::std::invoke_result<cuda::std::plus<int>, int, int>::type, int>, "");
  i[7] = *&cuda::std::as_const(i[6]) + cuda::std::to_integer<int>(cuda::std::byte{3});
  static_assert(cuda::std::is_same<cuda::std::remove_const<const int>::type, int>::value, "");
  static_assert(cuda::std::is_same<cuda::std::remove_const_t<const int>, int>::value, "");
  static_assert(cuda::std::is_same<cuda::std::remove_volatile<volatile int>::type, int>::value, "");
  static_assert(cuda::std::is_same<cuda::std::remove_volatile_t<volatile int>, int>::value, "");
  static_assert(cuda::std::is_same<cuda::std::remove_reference_t<int&>, int>::value, "");
  static_assert(cuda::std::is_same<cuda::std::remove_pointer_t<int*>, int>::value, "");
  static_assert(cuda::std::is_same<cuda::std::add_const_t<int>, const int>::value, "");
  static_assert(cuda::std::is_same<cuda::std::add_pointer_t<int>, int*>::value, "");
  static_assert(cuda::std::is_same<cuda::std::add_lvalue_reference_t<int>, int&>::value, "");
  static_assert(cuda::std::is_same<cuda::std::enable_if<true, int>::type, int>::value, "");
  static_assert(cuda::std::is_same<cuda::std::conditional<false, int, long>::type, long>::value, "");
  static_assert(cuda::std::is_same<cuda::std::decay<int[2]>::type, int*>::value, "");
  static_assert(cuda::std::is_same<cuda::std::remove_cv<const volatile int>::type, int>::value, "");
  static_assert(cuda::std::is_same<cuda::std::remove_reference<int&&>::type, int>::value, "");
  static_assert(cuda::std::is_same<cuda::std::remove_pointer<int**>::type, int*>::value, "");
  static_assert(cuda::std::is_same<cuda::std::add_const<int>::type, const int>::value, "");
  static_assert(cuda::std::is_same<cuda::std::add_pointer<int>::type, int*>::value, "");
  static_assert(cuda::std::is_same<cuda::std::add_lvalue_reference<int>::type, int&>::value, "");
  static_assert(cuda::std::is_same<cuda::std::make_signed<unsigned>::type, int>::value, "");
  static_assert(cuda::std::is_same<cuda::std::make_unsigned<int>::type, unsigned>::value, "");
  static_assert(cuda::std::is_same<cuda::std::common_type<int, int>::type, int>::value, "");
  static_assert(cuda::std::is_same<cuda::std::underlying_type<E>::type, cuda::std::uint8_t>::value, "");
  static_assert(cuda::std::is_integral<int>::value && cuda::std::is_floating_point<float>::value, "");
  static_assert(cuda::std::is_arithmetic<int>::value && cuda::std::is_signed<int>::value, "");
  static_assert(cuda::std::is_unsigned<unsigned>::value && cuda::std::is_pointer<int*>::value, "");
  static_assert(cuda::std::is_reference<int&>::value && cuda::std::is_const<const int>::value, "");
  static_assert(cuda::std::is_void<void>::value && cuda::std::is_enum<E>::value, "");
  static_assert(cuda::std::is_class<B>::value && cuda::std::is_trivially_copyable<B>::value, "");
  static_assert(cuda::std::is_convertible<int, long>::value && cuda::std::is_base_of<B, D>::value, "");
  static_assert(cuda::std::conjunction<cuda::std::true_type>::value, "");
  static_assert(cuda::std::disjunction<cuda::std::true_type>::value, "");
  static_assert(cuda::std::negation<cuda::std::false_type>::value, "");
  static_assert(sizeof(cuda::std::int8_t) + sizeof(cuda::std::int16_t) + sizeof(cuda::std::int32_t) +
                sizeof(cuda::std::int64_t) + sizeof(cuda::std::uint16_t) + sizeof(cuda::std::uint64_t) +
                sizeof(cuda::std::intptr_t) + sizeof(cuda::std::uintptr_t) + sizeof(cuda::std::intmax_t) +
                sizeof(cuda::std::uintmax_t) + sizeof(cuda::std::ptrdiff_t) +
                sizeof(cuda::std::nullptr_t) > 0, "");
  static_assert(cuda::std::integer_sequence<int, 1>::size() == 1, "");
  static_assert(cuda::std::is_same<cuda::std::make_integer_sequence<int, 0>, cuda::std::integer_sequence<int>>::value, "");

  cuda::std::array<int, 3> a{1, 2, 3};
  cuda::std::pair<int, float> p = cuda::std::make_pair(1, 2.0f);
  cuda::std::tuple<int, float> t = cuda::std::make_tuple(3, 4.0f);
  int x = 0;
  float y = 0;
  x = cuda::std::get<0>(t);
  y = cuda::std::get<1>(t);
  using T1 = cuda::std::tuple_element<1, cuda::std::tuple<int, float>>::type;
  T1 z = cuda::std::get<1>(t) + cuda::std::get<0>(p);
  int m = cuda::std::move(x);
  i[0] = a[1] + m + cuda::std::min(i[1], i[2]) + cuda::std::max(i[3], 4)
       + twice(i[5]) + int(count(1, 2.0)) + sum(cuda::std::make_index_sequence<4>{})
       + cuda::std::numeric_limits<cuda::std::uint32_t>::digits + int(cuda::std::uint8_t(200))
       + cuda::std::minus<int>()(3, 1) + cuda::std::multiplies<int>()(2, 3) + cuda::std::divides<int>()(6, 3)
       + cuda::std::modulus<int>()(7, 3) + cuda::std::negate<int>()(1)
       + cuda::std::equal_to<int>()(1, 1) + cuda::std::not_equal_to<int>()(1, 2) + cuda::std::greater<int>()(2, 1)
       + cuda::std::less<int>()(1, 2) + cuda::std::greater_equal<int>()(2, 2) + cuda::std::less_equal<int>()(1, 2)
       + cuda::std::logical_and<bool>()(true, true) + cuda::std::logical_or<bool>()(false, true)
       + cuda::std::logical_not<bool>()(false) + cuda::std::bit_and<int>()(6, 3) + cuda::std::bit_or<int>()(4, 1)
       + cuda::std::bit_xor<int>()(5, 1) + int(cuda::std::size_t(1)) + cuda::std::abs(-i[6]);
  int e = 0;
  float g = f[0];
  f[1] = z + y + cuda::std::fabs(g) + cuda::std::sqrt(g) + cuda::std::cbrt(g) + cuda::std::exp(g)
       + cuda::std::exp2(g) + cuda::std::expm1(g) + cuda::std::log(g) + cuda::std::log2(g) + cuda::std::log10(g)
       + cuda::std::log1p(g) + cuda::std::pow(g, 2.0f) + cuda::std::sin(g) + cuda::std::cos(g) + cuda::std::tan(g)
       + cuda::std::asin(g) + cuda::std::acos(g) + cuda::std::atan(g) + cuda::std::atan2(g, 1.0f)
       + cuda::std::sinh(g) + cuda::std::cosh(g) + cuda::std::tanh(g) + cuda::std::erf(g) + cuda::std::erfc(g)
       + cuda::std::floor(g) + cuda::std::ceil(g) + cuda::std::round(g) + cuda::std::trunc(g)
       + cuda::std::fmod(g, 2.0f) + cuda::std::fmin(g, 1.0f) + cuda::std::fmax(g, 1.0f) + cuda::std::fma(g, g, g)
       + cuda::std::hypot(g, g) + cuda::std::copysign(g, -1.0f) + cuda::std::isnan(g) + cuda::std::isinf(g)
       + cuda::std::isfinite(g) + cuda::std::signbit(g) + cuda::std::ldexp(g, 2) + cuda::std::frexp(g, &e)
       + cuda::std::numeric_limits<float>::infinity() + FLT_MAX + INT_MAX;
  d[0] = cuda::std::sqrt(d[1]) + cuda::std::numeric_limits<double>::epsilon();
}
// (gsplat's RasterizeToPixelsFromWorld3DGS*: optional parameters read with has_value, * and ->)
struct Params { float scale[2]; int n; };
__global__ void opt(const cuda::std::optional<Params> p, cuda::std::optional<int> q, float* f) {
  cuda::std::optional<int> r = cuda::std::nullopt;
  cuda::std::nullopt_t none = cuda::std::nullopt;
  if (p.has_value()) f[0] = p->scale[1] + (*p).n;
  r = cuda::std::make_optional(3);
  cuda::std::optional<int> s = none;
  f[1] = r.value_or(0) + (q ? *q : 0) + s.value_or(1);
}
