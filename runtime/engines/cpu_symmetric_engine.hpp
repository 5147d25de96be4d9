#pragma once
// The CPU engine for symmetric tensors (DESIGN.md section 7): T = C x_1 Q ... x_D Q with one
// orthogonal Q. Per group of disjoint pairs, each pair's angle maximizes its share of ||diag C||^2
// with every mode rotated by the same G(phi) (symmetric_rotation.hpp); the group's rotations,
// the same in every mode, are then applied in one fused pass (group_pass.hpp) and to Q.
// The pairs of a group are disjoint and C[p..p], C[q..q] depend only on the pair's pivot
// subtensor, so the group raises ||diag C||^2 by the sum of the pairs' gains, each >= 0.
#include "runtime/algorithm/group_rotations.hpp"
#include "runtime/algorithm/pivot_schedule.hpp"
#include "runtime/algorithm/run_result.hpp"
#include "runtime/algorithm/run_settings.hpp"
#include "runtime/core/scalar.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

// The values t_0 .. t_D of a symmetric pivot subtensor (2^D entries, bit n set = index q in mode
// n): t_k is the mean of the binom(D, k) entries with k indices q, which for a C symmetric to
// rounding is any one of them with the rounding averaged out. Complex entries give complex t_k.
template <class T>
std::vector<wide_t<T>> symmetric_pivot_values(const std::vector<T>& subtensor, int order);

// One group step on a symmetric `core`: the angles of every pair, then one pass over all modes.
// Returns the rotations (the same in every mode) for the factor.
template <class T>
GroupRotations<T> symmetric_group_step(HostTensor<T>& core, const PivotGroup& pairs, int threads);

// The run: max_diag, no pivot check (diagonalize() refuses the others for structure symmetric).
// Result::factors holds Q D times.
template <class T>
Result<T> run_cpu_symmetric_engine(const HostTensor<T>& tensor, const RunSettings& settings);

extern template std::vector<double> symmetric_pivot_values(const std::vector<float>&, int);
extern template std::vector<double> symmetric_pivot_values(const std::vector<double>&, int);
extern template std::vector<std::complex<double>> symmetric_pivot_values(const std::vector<std::complex<float>>&, int);
extern template std::vector<std::complex<double>> symmetric_pivot_values(const std::vector<std::complex<double>>&,
                                                                         int);
extern template GroupRotations<float> symmetric_group_step(HostTensor<float>&, const PivotGroup&, int);
extern template GroupRotations<double> symmetric_group_step(HostTensor<double>&, const PivotGroup&, int);
extern template Result<float> run_cpu_symmetric_engine(const HostTensor<float>&, const RunSettings&);
extern template Result<double> run_cpu_symmetric_engine(const HostTensor<double>&, const RunSettings&);

}  // namespace tensordiag::runtime
