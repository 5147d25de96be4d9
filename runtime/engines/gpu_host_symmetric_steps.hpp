#pragma once
// The general GPU engine's angles for complex symmetric tensors from order 4 (issue 11, item 3;
// docs/DESIGN.md section 7): their unitary step has no closed form (a branch and bound over the
// sphere, runtime/algorithm/symmetric_unitary_search.hpp: milliseconds a pair far from convergence,
// microseconds near it), so it runs on the host, the tensor's work on the device. Per group:
// symmetric_pivot_sums sums each pair's pivot subtensor by k (the number of indices equal to q) in
// chunks; the host adds a pair's chunks in order, takes the means t_k (the sums over binom(D, k)
// entries, as the CPU engine's symmetric_pivot_values), the pairs' steps on its threads, and sends
// the rotations, the same in every mode, to the group pass. One synchronization a group: a sweep of
// these is not captured in a graph.
#include <complex>
#include <cstddef>
#include <vector>

#include "codegen/kernel_plan.hpp"
#include "dsl/givens.hpp"
#include "runtime/algorithm/symmetric_unitary_search.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/core/scalar.hpp"
#include "runtime/cuda/cuda_check.hpp"
#include "runtime/cuda/cuda_stream.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/engines/gpu_kernels.hpp"

namespace tensordiag::runtime {

template <class T>
class GpuHostSymmetricSteps {
public:
  GpuHostSymmetricSteps(int order, int size, const codegen::SymmetricAnglesPlan& plan, int threads)
      : order_(order),
        pairs_(static_cast<std::size_t>(size / 2)),
        chunks_(static_cast<std::size_t>(plan.chunks)),
        threads_(threads),
        sums_(pairs_ * chunks_ * values() * 2),
        host_sums_(sums_.count()),
        rotations_(static_cast<std::size_t>(order) * pairs_) {}

  // The group's rotations into `rotations` (rotations[n * PAIRS + k], every mode n), in stream order
  // before the group pass; returns when the host has taken the steps (the upload is enqueued).
  void enqueue(cudaStream_t stream, const GpuKernels<T>& kernels, const T* tensor, const int* pairs,
               dsl::Givens<T>* rotations) {
    kernels.symmetric_pivot_sums(stream, tensor, pairs, sums_.data());
    check_cuda(cudaMemcpyAsync(host_sums_.data(), sums_.data(), sums_.count() * sizeof(double), cudaMemcpyDeviceToHost,
                               stream),
               "cudaMemcpyAsync (symmetric pivot sums)");
    // The last group's upload reads rotations_ too: it is done once this synchronization returns.
    check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    const std::vector<dsl::UnitaryGivens<double>> steps = symmetric_unitary_searches(means(), order_, threads_);
    for (std::size_t k = 0; k < pairs_; ++k)
      for (std::size_t n = 0; n < static_cast<std::size_t>(order_); ++n) rotations_[n * pairs_ + k] = rotation_of(steps[k]);
    check_cuda(cudaMemcpyAsync(rotations, rotations_.data(), rotations_.count() * sizeof(dsl::Givens<T>),
                               cudaMemcpyHostToDevice, stream),
               "cudaMemcpyAsync (symmetric rotations)");
  }

private:
  // The step in T, rounded as the CPU engine rounds it (al to the real type, be to T).
  static dsl::Givens<T> rotation_of(const dsl::UnitaryGivens<double>& step) {
    if constexpr (is_complex_v<T>) return {T(static_cast<real_t<T>>(step.al)), T(step.be)};
    else throw internal_error("a real tensor has no unitary step (codegen::symmetric_step_on_host is complex only)");
  }

  std::size_t values() const { return static_cast<std::size_t>(order_) + 1; }

  // Pair k's t_0 .. t_D at [k (D + 1)]: its chunks' sums added in chunk order, over binom(D, j).
  std::vector<std::complex<double>> means() {
    std::vector<std::complex<double>> t(pairs_ * values());
    for (std::size_t k = 0; k < pairs_; ++k) {
      double binomial = 1.0;  // binom(D, j), exact in double
      for (std::size_t j = 0; j < values(); ++j) {
        std::complex<double> sum = 0.0;
        for (std::size_t c = 0; c < chunks_; ++c) {
          const double* s = &host_sums_[((k * chunks_ + c) * values() + j) * 2];
          sum += std::complex<double>(s[0], s[1]);
        }
        t[k * values() + j] = sum / binomial;
        binomial = binomial * static_cast<double>(order_ - static_cast<int>(j)) / static_cast<double>(j + 1);
      }
    }
    return t;
  }

  int order_;
  std::size_t pairs_, chunks_;
  int threads_;
  DeviceBuffer<double> sums_;          // symmetric_pivot_sums's: pair, chunk, j, (re, im)
  PinnedBuffer<double> host_sums_;
  PinnedBuffer<dsl::Givens<T>> rotations_;  // the group's, every mode
};

}  // namespace tensordiag::runtime
