#pragma once
// The CPU engine for skew-symmetric tensors (structure skew; docs/DESIGN.md section 7):
// T = C x_1 Q ... x_D Q with one orthogonal Q, C skew-symmetric and as close to the block form as
// the rule gets it (dsl/skew_rule.hpp: maximize sum_k C[B_k]^2).
//
// D >= 3: the groups of algorithm/skew_schedule.hpp, whose pairs touch disjoint blocks: each
// group's angles from the same core, then one fused pass of its rotations (the same in every mode,
// algorithm/group_pass's). Each pair's rotation raises the objective by its own gain (>= 0), as
// one pair at a time would. A sweep is about N D group passes, D times the N - 1 of a general
// sweep: a round of the blocks' round robin takes D^2 groups. The GPU engine runs the same groups
// (gpu_engine.cpp), so the two agree to rounding.
//
// D = 2 (a skew matrix): Paardekooper's method, two 2 x 2 blocks at a time brought to their
// Murnaghan form exactly (algorithm/murnaghan_step.hpp): single plane rotations converge slowly
// there.
//
// At the end every C[B_k] is made >= 0 (algorithm/skew_signs.hpp).
#include "dsl/givens.hpp"
#include "runtime/algorithm/run_result.hpp"
#include "runtime/algorithm/run_settings.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

// The rotation of the pair (p, q) the skew rule picks on `core` (identity when it changes nothing):
// the CPU engine's angles, and the tests' reference.
template <class T>
dsl::Givens<double> skew_pair_rotation(const HostTensor<T>& core, int p, int q);

// core <- core x_1 R^T ... x_D R^T, R the rotation g in the plane (p, q) (the tests' reference
// for one pair; the engine applies a group in one pass): in every mode,
// C[.. p@n ..] <- c C[.. p@n ..] + s C[.. q@n ..], C[.. q@n ..] <- c C[.. q@n ..] - s C[.. p@n ..].
template <class T>
void rotate_pair_every_mode(HostTensor<T>& core, int p, int q, dsl::Givens<T> g, int threads);

// The run: rule max_diag on the blocks, no pivot check (diagonalize() refuses the others for
// structure skew). Result::factors holds Q D times.
template <class T>
Result<T> run_cpu_skew_engine(const HostTensor<T>& tensor, const RunSettings& settings);

extern template dsl::Givens<double> skew_pair_rotation(const HostTensor<float>&, int, int);
extern template dsl::Givens<double> skew_pair_rotation(const HostTensor<double>&, int, int);
extern template void rotate_pair_every_mode(HostTensor<float>&, int, int, dsl::Givens<float>, int);
extern template void rotate_pair_every_mode(HostTensor<double>&, int, int, dsl::Givens<double>, int);
extern template Result<float> run_cpu_skew_engine(const HostTensor<float>&, const RunSettings&);
extern template Result<double> run_cpu_skew_engine(const HostTensor<double>&, const RunSettings&);

}  // namespace tensordiag::runtime
