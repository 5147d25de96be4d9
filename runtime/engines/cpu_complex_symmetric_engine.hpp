#pragma once
// The CPU engine for complex symmetric tensors (issue 11, item 3; docs/DESIGN.md section 7):
// T = C x_1 U ... x_D U with one unitary U, C symmetric and as diagonal as max_diag makes it,
// any order >= 2 (order 2: the Takagi factorization T = U C U^T). Per group of disjoint pairs, each
// pair's rotation maximizes its share of ||diag C||^2 with every mode rotated by the same unitary G
// (orders 2 and 3: dsl/symmetric_unitary_angle.hpp, the dominant eigenvector of a 3 x 3 form on the
// Bloch sphere; from order 4: algorithm/symmetric_unitary_search.hpp, a proven search of the sphere);
// the group's rotations, the same in every mode, are applied in one fused pass (group_pass.hpp) and
// to U. At the end each index's phase is spread over the modes so that every C[i, .., i] is real
// and >= 0 (algorithm/diagonal_phases.hpp).
#include <complex>
#include <string>
#include <vector>

#include "dsl/unitary_rotation.hpp"
#include "runtime/algorithm/run_result.hpp"
#include "runtime/algorithm/run_settings.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

// The rotation of a symmetric pivot subtensor's values t_0 .. t_D (k indices equal to q), for a
// tensor of real type R: order 3 in R (dsl::symmetric_unitary_rotation_in: float for complex64,
// as the kernels), order 2 in double, the searched step above them.
template <class R = double>
dsl::UnitaryGivens<double> complex_symmetric_rotation(const std::vector<std::complex<double>>& t);
extern template dsl::UnitaryGivens<double> complex_symmetric_rotation<float>(const std::vector<std::complex<double>>&);
extern template dsl::UnitaryGivens<double> complex_symmetric_rotation<double>(const std::vector<std::complex<double>>&);

// The run: max_diag, no pivot check. Result::factors holds U D times.
template <class R>
Result<std::complex<R>> run_cpu_complex_symmetric_engine(const HostTensor<std::complex<R>>& tensor,
                                                         const RunSettings& settings);

extern template Result<std::complex<float>> run_cpu_complex_symmetric_engine(const HostTensor<std::complex<float>>&,
                                                                             const RunSettings&);
extern template Result<std::complex<double>> run_cpu_complex_symmetric_engine(const HostTensor<std::complex<double>>&,
                                                                              const RunSettings&);

}  // namespace tensordiag::runtime
