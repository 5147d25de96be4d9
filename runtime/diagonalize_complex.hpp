#pragma once
// The public entry point for complex tensors (issue 11, item 3): T = C x_1 U_1 ... x_D U_D with
// unitary U_n, (C x_n U)[.. j ..] = sum_i U[j, i] C[.. i ..] (no conjugation: C = T x_1 U_1^H ..
// x_D U_D^H), C as diagonal as the rule makes it, every C[i, .., i] real and >= 0 (the phase of
// each index fixed in U_1). diagonalize() with a complex tensor, by its name: the engine table's
// complex entries (the GPU engine's complex kernels without the pivot check, or the CPU's complex
// engine, engines/cpu_complex_engine.hpp); Init::hosvd starts it from the unitary HOSVD bases
// (G_n = T_(n) T_(n)^H, on the host).
#include <complex>

#include "runtime/algorithm/run_options.hpp"
#include "runtime/algorithm/run_result.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

// The options no complex engine takes, as one-line user_errors: a rule without a complex lift
// (max_trace), structure skew.
void check_complex_options(const Options& options);

// Throws user_error for what the complex engines do not take (check_complex_options), and for the
// input errors diagonalize() gives (shape, NaN or Inf in either part); backend cuda for a run the
// GPU engine declines (the pivot check, a pivot subtensor over the shared memory), which auto runs
// on the CPU with a note.
template <class R>
Result<std::complex<R>> diagonalize_complex(const HostTensor<std::complex<R>>& tensor, const Options& options = {});

extern template Result<std::complex<float>> diagonalize_complex(const HostTensor<std::complex<float>>&,
                                                                const Options&);
extern template Result<std::complex<double>> diagonalize_complex(const HostTensor<std::complex<double>>&,
                                                                 const Options&);

}  // namespace tensordiag::runtime
