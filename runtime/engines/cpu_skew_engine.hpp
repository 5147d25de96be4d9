#pragma once
// The CPU engine for skew-symmetric tensors (structure skew; docs/DESIGN.md section 7):
// T = C x_1 Q ... x_D Q with one orthogonal Q, C skew-symmetric and as close to the block form as
// the rule gets it (dsl/skew_rule.hpp: maximize sum_k C[B_k]^2).
//
// D >= 3: pairs one at a time, not a group at once: a pair's block entries C[B_A], C[B_B] hold
// D - 1 other indices, which other pairs of a round-robin group rotate too, so a group's rotations
// applied together need not raise the objective. One pair at a time, each rotation raises it by its
// own gain (>= 0), at the price of D slices of 2 N^(D-1) entries a pair: D (N - 1) N^D entry
// updates a sweep, D times the group passes' N^D (N - 1) of the general engine. Pairs inside one
// block, or in none, are skipped (their rotation cannot change a block entry).
//
// D = 2 (a skew matrix): Paardekooper's method, two 2 x 2 blocks at a time brought to their
// Murnaghan form exactly (algorithm/murnaghan_step.hpp): single plane rotations converge slowly
// there.
//
// At the end every C[B_k] is made >= 0 by the sign flip of index kD in every mode and of column kD
// of Q (exact: C x S ... x S and Q S with S = diag(+-1)).
#include "dsl/givens.hpp"
#include "runtime/algorithm/run_result.hpp"
#include "runtime/algorithm/run_settings.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

// The rotation of the pair (p, q) the skew rule picks on `core` (identity when it changes nothing).
template <class T>
dsl::Givens<double> skew_pair_rotation(const HostTensor<T>& core, int p, int q);

// core <- core x_1 R^T ... x_D R^T, R the rotation g in the plane (p, q): in every mode,
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
