// symmetric_warp_angle: structure symmetric's pair rotation by a whole warp (DESIGN.md section 7),
// for symmetric_angles and, through symmetric_pair.cuh, the kernels that run a group in shared
// memory. From the D + 1 means t_k of a pivot subtensor (the same in every lane), the maximizer of
// C'_{p..p}^2 + C'_{q..q}^2 by dsl/symmetric_angle.hpp: D = 2 its closed form in double, D = 3 its
// closed form in the tensor's real type (symmetric_angle_in, as the CPU engines); from D = 4 on, in
// double, lane l takes piece l % 16 of chart l / 16 (every lane forms its chart's
// polynomial, 2K + 1 doubles, in registers), keeps its first candidate of the largest gain, and a
// warp reduction picks the largest gain, the lowest lane of equal ones: the serial order of
// dsl::symmetric_angle<D>, whose rotation this is, bit for bit where the host rounds alike. The same
// rotation in every lane.
__device__ inline tensordiag::dsl::Givens<double> warp_symmetric_angle(const double* t, int lane) {
  using namespace tensordiag::dsl;
  constexpr int K = D / 2;
  if constexpr (K < 2) {
    return symmetric_angle_in<D, Real>(t);
  } else {
    static_assert(2 * symmetric_chart_pieces == 32, "a piece a lane");
    SymmetricFourier<D> fourier;
    if (!symmetric_fourier<D>(t, fourier)) return {1.0, 0.0};
    const int chart = lane / symmetric_chart_pieces;
    SymmetricChart<K> polynomial;
    symmetric_chart<D>(fourier, chart, polynomial);
    SymmetricBest best;
    symmetric_piece_best<D>(fourier, polynomial, chart, lane % symmetric_chart_pieces, best);
    int first = best.gain > 0.0 ? lane : 32;  // the lane whose candidate this is; 32: none
    for (int offset = 16; offset > 0; offset /= 2) {
      const double other_gain = __shfl_xor_sync(0xffffffffu, best.gain, offset);
      const double other_t = __shfl_xor_sync(0xffffffffu, best.t, offset);
      const int other_first = __shfl_xor_sync(0xffffffffu, first, offset);
      if (other_gain > best.gain || (other_gain == best.gain && other_first < first)) {
        best.gain = other_gain;
        best.t = other_t;
        first = other_first;
      }
    }
    return symmetric_angle_rotation(best.t);
  }
}
