#pragma once
// The CPU engine for symmetric tensors in packed storage (issue 11, item 1): the symmetric engine's
// run (cpu_symmetric_engine.hpp: one Q, every mode rotated by the same G(phi), the angle from the
// pivot values t_0 .. t_D by symmetric_angle) on the binom(N + D - 1, D) distinct entries alone.
// The pairs of a group are rotated one after the other (packed_rotation.hpp): rotations in disjoint
// planes commute, and pair (p, q)'s pivot entries are not touched by another pair of its group,
// so this is the group's fused pass of full storage, to rounding. Same schedule as the symmetric
// engine (round robin, or --schedule xor's groups), so both engines make the same rotations.
#include "runtime/algorithm/packed_result.hpp"
#include "runtime/algorithm/run_settings.hpp"

namespace tensordiag::runtime {

template <class T>
PackedResult<T> run_cpu_packed_engine(const PackedSymmetricTensor<T>& tensor, const RunSettings& settings);

extern template PackedResult<float> run_cpu_packed_engine(const PackedSymmetricTensor<float>&, const RunSettings&);
extern template PackedResult<double> run_cpu_packed_engine(const PackedSymmetricTensor<double>&, const RunSettings&);

}  // namespace tensordiag::runtime
