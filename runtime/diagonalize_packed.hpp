#pragma once
// The public entry point for a symmetric tensor in packed storage (packed_symmetric.hpp; issue 11,
// item 1): T = C x_1 Q ... x_D Q with one orthogonal Q, C symmetric and packed the same way, as
// diagonalize() with structure symmetric computes it (the same rotations, to rounding) on the
// binom(N + D - 1, D) distinct entries instead of N^D. On the CPU (engines/cpu_packed_engine.hpp)
// or the GPU (engines/gpu_packed_engine.hpp, order D <= 12), the same rotations.
#include <vector>

#include "runtime/algorithm/packed_result.hpp"
#include "runtime/algorithm/run_options.hpp"

namespace tensordiag::runtime {

// The verification of a packed run (packed_transform.hpp) holds two partly symmetric
// intermediates; above this many bytes a run that asks for it is refused before it starts.
inline constexpr std::size_t max_packed_verification_bytes = std::size_t{8} << 30;

// Throws user_error in one line for what the packed engine does not take, before anything runs:
// structure skew, a rule other than max_diag, the pivot check, backend cuda at an order over 12
// or where the GPU packed engine declines (no GPU, too little device memory), the xor schedule for
// N not a power of two, a verification or HOSVD start past max_packed_verification_bytes (both
// take the partly symmetric mode products); and for a NaN or Inf entry. Backend auto runs on the
// GPU where the GPU packed engine takes the tensor, else on the CPU with a note. Init::hosvd starts from Q = G_1's eigenvectors in
// every mode (packed_hosvd_start.hpp), as a full symmetric run does.
template <class T>
PackedResult<T> diagonalize_packed(const PackedSymmetricTensor<T>& tensor, const Options& options = {});

// A batch of packed symmetric tensors of one order and size, each as diagonalize_packed runs it
// alone (the same engine, the same result bit for bit), one after the other; user_error for an
// empty batch or tensors of different shapes. A cancelled run stops between tensors too.
template <class T>
std::vector<PackedResult<T>> diagonalize_packed_batch(const std::vector<PackedSymmetricTensor<T>>& tensors,
                                                      const Options& options = {});

// The option checks alone (the CLI asks before it reads the file).
void check_packed_options(int order, int size, const Options& options);

extern template PackedResult<float> diagonalize_packed(const PackedSymmetricTensor<float>&, const Options&);
extern template PackedResult<double> diagonalize_packed(const PackedSymmetricTensor<double>&, const Options&);
extern template std::vector<PackedResult<float>> diagonalize_packed_batch(const std::vector<PackedSymmetricTensor<float>>&,
                                                                          const Options&);
extern template std::vector<PackedResult<double>> diagonalize_packed_batch(
    const std::vector<PackedSymmetricTensor<double>>&, const Options&);

}  // namespace tensordiag::runtime
