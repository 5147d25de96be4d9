#pragma once
// The CPU engine for complex tensors with unitary factors (issue 11, item 3; docs/DESIGN.md
// section 7): T = C x_1 U_1 ... x_D U_D, (C x_n U)[.. j ..] = sum_i U[j, i] C[.. i ..], U_n unitary,
// C as diagonal as the rule makes it. The rule is a real rule's complex lift
// (dsl/hermitian_form.hpp): its maximizer is the dominant eigenvector of a 2 x 2 Hermitian matrix
// of the four pivot entries (dsl/unitary_rotation.hpp).
//
// The sweep is the real engine's round robin. Per group, the micro-iterations (each mode in order,
// the group's pairs together: they touch disjoint rows) are followed on each pair's pivot
// subtensor {p, q}^D, which no other pair touches, and the group's rotations of every mode are then
// applied in one fused pass (engines/group_pass.hpp) and to the U_n; only the four entries of a
// subtensor each mode reads are formed (pivot_corners.hpp). With the pivot check, whose Lambda
// needs the whole core as the earlier modes left it: mode by mode, one pass each.
//
// At the end the global phase of each index is fixed (algorithm/diagonal_phases.hpp): every
// diagonal entry C[i, .., i] real and >= 0.
#include <complex>
#include <string_view>

#include "dsl/unitary_rotation.hpp"
#include "runtime/algorithm/run_result.hpp"
#include "runtime/algorithm/run_settings.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

// Whether the built-in rule `name` has a complex lift (dsl/hermitian_form.hpp): max_diag does,
// max_trace (linear, not a sum of squares) does not. False for an unknown name.
bool rule_has_complex_lift(std::string_view name);

// The rotation the max-diag rule's lift picks for pair (p, q) of `mode` on `core`.
template <class R>
dsl::UnitaryGivens<double> complex_pair_rotation(const HostTensor<std::complex<R>>& core, int mode, int p, int q);

// core <- core x_mode G^H in the plane (p, q), al real >= 0 (as UnitaryGivens holds it): C'[p] = al C[p] + conj(be) C[q],
// C'[q] = al C[q] - be C[p] (rows of `mode`).
template <class R>
void rotate_complex_rows(HostTensor<std::complex<R>>& core, int mode, int p, int q, const dsl::UnitaryGivens<R>& g);

// The run: rule max_diag (its lift), the pivot check when settings.eta > 0, the round robin.
template <class R>
Result<std::complex<R>> run_cpu_complex_engine(const HostTensor<std::complex<R>>& tensor, const RunSettings& settings);

extern template dsl::UnitaryGivens<double> complex_pair_rotation(const HostTensor<std::complex<float>>&, int, int, int);
extern template dsl::UnitaryGivens<double> complex_pair_rotation(const HostTensor<std::complex<double>>&, int, int, int);
extern template void rotate_complex_rows(HostTensor<std::complex<float>>&, int, int, int, const dsl::UnitaryGivens<float>&);
extern template void rotate_complex_rows(HostTensor<std::complex<double>>&, int, int, int,
                                         const dsl::UnitaryGivens<double>&);
extern template Result<std::complex<float>> run_cpu_complex_engine(const HostTensor<std::complex<float>>&,
                                                                   const RunSettings&);
extern template Result<std::complex<double>> run_cpu_complex_engine(const HostTensor<std::complex<double>>&,
                                                                    const RunSettings&);

}  // namespace tensordiag::runtime
