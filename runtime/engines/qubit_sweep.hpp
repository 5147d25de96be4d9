#pragma once
// The sweeps of the N = 2 path on the device (kernels_templates/qubit_sweep.cu; issue 12): the
// state it keeps and one sweep's launches, shared by the one-GPU engine (gpu_qubit_engine.cpp) and
// the GPU ranks that split an N = 2 tensor (runtime/distributed/gpu_qubit_ranks.hpp).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <complex>
#include <cstddef>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "codegen/kernel_plan.hpp"
#include "dsl/givens.hpp"
#include "runtime/core/scalar.hpp"
#include "runtime/core/tensor.hpp"
#include "runtime/cuda/cuda_check.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/engines/gpu_kernels.hpp"

namespace tensordiag::runtime {

// The halves of the memory bits (qubit_sweep.cu): 0 the low bits (a row), 1 the high bits.
constexpr int low_half = 0, high_half = 1;

// What the sweeps keep on the device: the tensor as it came (the core only after write_core), the
// D accumulated rotations U(u, v) in double (complex<double> for a complex tensor), each half's
// small array and the reduction's partials.
template <class T>
struct QubitState {
  // Doubles a value of u, v, a or d takes on the device: 1, or 2 for a complex tensor.
  static constexpr std::size_t wide_doubles = is_complex_v<T> ? 2 : 1;

  // `count` entries at `input` (host memory): the whole tensor, or a slab of it.
  QubitState(const T* input, std::size_t count, int tensor_order, const GpuKernels<T>& kernels, cudaStream_t stream)
      : order(tensor_order),
        plan(*kernels.qubit_plan),
        values(count),
        accumulated(2 * wide_doubles * static_cast<std::size_t>(tensor_order)),
        small{DeviceBuffer<double>(static_cast<std::size_t>(plan.small_low_doubles)),
              DeviceBuffer<double>(static_cast<std::size_t>(plan.small_high_doubles))},
        partials(static_cast<std::size_t>(std::max(plan.partial_doubles, kernels.off_norm_plan.partial_doubles))),
        figures(2 * wide_doubles) {
    values.upload(input, count, stream);
    // U(1, 0) = I a mode: u = 1, v = 0.
    std::vector<double> identities(accumulated.count(), 0.0);
    for (int n = 0; n < tensor_order; ++n) identities[2 * wide_doubles * static_cast<std::size_t>(n)] = 1.0;
    accumulated.upload(identities, stream);
  }

  int order;
  codegen::QubitSweepPlan plan;
  DeviceBuffer<T> values;
  DeviceBuffer<double> accumulated;
  DeviceBuffer<double> small[2];
  DeviceBuffer<double> partials;
  DeviceBuffer<double> figures;
};

// The rows (high-half indices) a state's values hold: all 2^(D - low_bits), or a slab's.
struct QubitRows {
  int first;
  int count;
};

// One sweep (qubit_sweep.cu, steps 1-6): the late half reduced, the early half's angles, the early
// half reduced with them, the late half's angles; then (a, d) of the new core to the host. The
// early half is the high bits in C order, the low bits in F order. On a slab, `combine(v, n)`
// sums each reduction's n doubles across the ranks before they are settled (the rows a slab does
// not hold add zeros), so that every rank settles and takes the angles of the whole tensor alike.
template <class T>
class QubitSweep {
public:
  using Combine = std::function<void(double*, std::size_t)>;

  QubitSweep(QubitState<T>& state, const GpuKernels<T>& kernels, bool c_order, std::optional<QubitRows> rows = {},
             Combine combine = {})
      : state_(state), kernels_(kernels), early_(c_order ? high_half : low_half),
        rows_(rows.value_or(QubitRows{0, 1 << (state.order - state.plan.low_bits)})), combine_(std::move(combine)),
        corners_(2 * QubitState<T>::wide_doubles) {}

  void enqueue(cudaStream_t stream) {
    for (const int half : {early_, 1 - early_}) {
      // Reduce the other half: a row reduction leaves the high half's array, a column reduction
      // the low half's partial sums.
      if (half == high_half) {
        double* small = state_.small[high_half].data();
        // The rows a slab does not hold stay 0 (settle left last sweep's values there).
        if (combine_)
          check_cuda(cudaMemsetAsync(small, 0, state_.small[high_half].count() * sizeof(double), stream),
                     "cudaMemsetAsync (qubit small)");
        kernels_.qubit_reduce_low(stream, state_.values.data(), state_.accumulated.data(), small, rows_.first,
                                  rows_.count);
        if (combine_) combine_(small, state_.small[high_half].count());
        settle(stream, high_half, 0);
      } else {
        kernels_.qubit_reduce_high(stream, state_.values.data(), state_.accumulated.data(), state_.partials.data(),
                                   rows_.first, rows_.count);
        if (combine_) combine_(state_.partials.data(), static_cast<std::size_t>(state_.plan.partial_doubles));
        settle(stream, low_half, static_cast<int>(state_.plan.shares));
      }
      kernels_.qubit_angles(stream, state_.small[half].data(), state_.accumulated.data(), half, state_.figures.data());
    }
    check_cuda(cudaMemcpyAsync(corners_.data(), state_.figures.data(), corners_.count() * sizeof(double),
                               cudaMemcpyDeviceToHost, stream),
               "cudaMemcpyAsync (corners)");
  }

  // C[p..p] and C[q..q] after the sweep enqueue() ran, once the stream has reached it.
  wide_t<T> a() { return corner(0); }
  wide_t<T> d() { return corner(1); }

private:
  wide_t<T> corner(std::size_t k) {
    if constexpr (is_complex_v<T>) return {corners_[2 * k], corners_[2 * k + 1]};
    else return corners_[k];
  }

  // The half's accumulated rotations applied to its small array, CELL_BITS bits a launch; the
  // first launch sums `shares` partials into it (0: the array is already whole).
  void settle(cudaStream_t stream, int half, int shares) {
    const int bits = half == high_half ? state_.order - state_.plan.low_bits : state_.plan.low_bits;
    for (int first = 0; first < bits; first += state_.plan.cell_bits)
      kernels_.qubit_settle(stream, state_.partials.data(), first == 0 ? shares : 0, state_.small[half].data(),
                            state_.accumulated.data(), half, first, std::min(state_.plan.cell_bits, bits - first));
  }

  QubitState<T>& state_;
  const GpuKernels<T>& kernels_;
  int early_;
  QubitRows rows_;
  Combine combine_;
  PinnedBuffer<double> corners_;
};

// The accumulated rotations U_n = U(u_n, v_n) as chunk_pass applies them to write the core (the
// pair (0, 1) in every mode), and the factors M_n = U_n^H (T = C x_n M_n; real: [[c, -s], [s, c]],
// group_factors' convention). chunk_pass's complex rotation has a real c, so a complex U_n is
// split as diag(w_n, conj(w_n)) U(|u_n|, w_n v_n) with w_n = u_n / |u_n| (1 where u_n = 0): the core
// written is C' = T x_n U(|u_n|, w_n v_n), and C = C' x_n diag(w_n, conj(w_n)) (`phases` holds w_n;
// empty for a real tensor).
template <class T>
struct QubitRotations {
  std::vector<dsl::Givens<T>> rotations;
  std::vector<Matrix<T>> factors;
  std::vector<std::complex<double>> phases;
};

// Synchronizes the stream.
template <class T>
QubitRotations<T> accumulated_rotations(QubitState<T>& state, cudaStream_t stream) {
  std::vector<double> accumulated(state.accumulated.count());
  state.accumulated.download(accumulated.data(), accumulated.size(), stream);
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  QubitRotations<T> out;
  for (std::size_t n = 0; n < static_cast<std::size_t>(state.order); ++n) {
    if constexpr (is_complex_v<T>) {
      const double* at = accumulated.data() + 4 * n;
      const std::complex<double> u(at[0], at[1]), v(at[2], at[3]);
      const double modulus = std::abs(u);
      const std::complex<double> w = modulus > 0 ? u / modulus : 1.0;
      out.rotations.push_back({T(static_cast<real_t<T>>(modulus)), T(w * v)});
      out.factors.push_back(Matrix<T>{2, {T(std::conj(u)), T(-std::conj(v)), T(v), T(u)}});
      out.phases.push_back(w);
    } else {
      const T c = static_cast<T>(accumulated[2 * n]);
      const T s = static_cast<T>(accumulated[2 * n + 1]);
      out.rotations.push_back({c, s});
      out.factors.push_back(Matrix<T>{2, {c, -s, s, c}});
    }
  }
  return out;
}

}  // namespace tensordiag::runtime
