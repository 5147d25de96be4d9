#pragma once
// Compile-time integers with short names (as CuTe's Int<4> / _4): long type names slow compilation
// and bury errors. One code path serves static (hana::int_<N>) and dynamic (int) values.
#include <boost/hana/integral_constant.hpp>
#include <type_traits>

namespace tensordiag::dsl {

template <int N>
using Int = boost::hana::int_<N>;

inline constexpr Int<2> _2{};
inline constexpr Int<3> _3{};
inline constexpr Int<4> _4{};
inline constexpr Int<5> _5{};
inline constexpr Int<6> _6{};
inline constexpr Int<7> _7{};
inline constexpr Int<8> _8{};
inline constexpr Int<9> _9{};
inline constexpr Int<16> _16{};
inline constexpr Int<32> _32{};
inline constexpr Int<64> _64{};
inline constexpr Int<128> _128{};

template <class T>
inline constexpr bool is_static_v = boost::hana::IntegralConstant<std::remove_cvref_t<T>>::value;

// @post value_of(Int<N>{}) == N and value_of(n) == n for a plain integer.
template <class T>
constexpr long long value_of(T x) {
  if constexpr (is_static_v<T>) {
    return std::remove_cvref_t<T>::value;
  } else {
    return static_cast<long long>(x);
  }
}

}  // namespace tensordiag::dsl
