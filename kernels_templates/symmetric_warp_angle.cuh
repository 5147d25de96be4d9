// symmetric_warp_angle: structure symmetric's pair rotation by a whole warp (DESIGN.md section 7),
// for symmetric_angles and, through symmetric_pair.cuh, the kernels that run a group in shared
// memory. From the D + 1 means t_k of a pivot subtensor (the same in every lane), the maximizer of
// C'_{p..p}^2 + C'_{q..q}^2 by dsl/symmetric_angle.hpp, in the tensor's real type where
// symmetric_angle_in takes it (order 3, and symmetric_search_in_float's orders), else in double:
// D = 2 and 3 their closed forms; from D = 4 on, lane l takes piece l % 16 of chart l / 16 (every lane forms its
// chart's polynomial, 2K + 1 reals, in registers), keeps its first candidate of the largest gain,
// and a warp reduction picks the largest gain, the lowest lane of equal ones: the serial order of
// dsl::symmetric_searched_tangent, whose rotation this is, bit for bit where the host rounds alike.
// The same rotation in every lane.
// A if in_float, else B (NVRTC has no <type_traits>).
template <bool in_float, class A, class B>
struct SearchType {
  using type = A;
};
template <class A, class B>
struct SearchType<false, A, B> {
  using type = B;
};

__device__ inline tensordiag::dsl::Givens<double> warp_symmetric_angle(const double* t, int lane) {
  using namespace tensordiag::dsl;
  constexpr int K = D / 2;
  // The search's real type: the tensor's where symmetric_angle_in takes it, else double.
  using Search = typename SearchType<tensordiag::dsl::symmetric_search_in_float<D>, Real, double>::type;
  if constexpr (K < 2) {
    return symmetric_angle_in<D, Real>(t);
  } else {
    static_assert(2 * symmetric_chart_pieces == 32, "a piece a lane");
    Search narrow[D + 1];
#pragma unroll
    for (int k = 0; k <= D; ++k) narrow[k] = static_cast<Search>(t[k]);
    SymmetricFourier<D, Search> fourier;
    if (!symmetric_fourier<D, Search>(narrow, fourier)) return {1.0, 0.0};
    const int chart = lane / symmetric_chart_pieces;
    SymmetricChart<K, Search> polynomial;
    symmetric_chart<D, Search>(fourier, chart, polynomial);
    SymmetricBest<Search> best;
    symmetric_piece_best<D, Search>(fourier, polynomial, chart, lane % symmetric_chart_pieces, best);
    int first = best.gain > 0 ? lane : 32;  // the lane whose candidate this is; 32: none
    for (int offset = 16; offset > 0; offset /= 2) {
      const Search other_gain = __shfl_xor_sync(0xffffffffu, best.gain, offset);
      const Search other_t = __shfl_xor_sync(0xffffffffu, best.t, offset);
      const int other_first = __shfl_xor_sync(0xffffffffu, first, offset);
      if (other_gain > best.gain || (other_gain == best.gain && other_first < first)) {
        best.gain = other_gain;
        best.t = other_t;
        first = other_first;
      }
    }
    const Givens<Search> g = symmetric_angle_rotation<Search>(best.t);
    return {static_cast<double>(g.c), static_cast<double>(g.s)};
  }
}
