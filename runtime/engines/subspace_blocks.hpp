#pragma once
// What a subspace pass (xor_schedule.hpp) does to the tensor and the factors: per mode n and coset
// a + V, the 2^k x 2^k orthogonal block Q[a][n] its groups compose to (the product R_1 R_2 .. of
// their rotations in the factor convention M_n <- M_n R). The tensor takes
//   C[.. a XOR V[j] @n ..] <- sum_i Q[a][n](i, j) C[.. a XOR V[i] @n ..]   in every mode at once,
// and the factors M_n[:, a XOR V[.]] <- M_n[:, a XOR V[.]] Q[a][n].
#include <vector>

#include "runtime/algorithm/xor_schedule.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

template <class T>
struct SubspaceBlocks {
  int order = 0;
  std::vector<std::vector<Matrix<T>>> by_coset;  // by_coset[a][n], cosets in pass.leaders order

  const Matrix<T>& at(std::size_t coset, int mode) const { return by_coset[coset][static_cast<std::size_t>(mode)]; }
};

// Where the entries of a cell lie in a tensor: cell (a_1, .., a_D) (coset numbers) has entry
// (t_1, .., t_D) at local position sum_n t_n 2^(k(D-1-n)) (row-major, mode 0 slowest) and at
// offset sum_n ((leader a_n) XOR V[t_n]) * stride_n in the tensor.
class CellOffsets {
public:
  CellOffsets(const std::vector<std::ptrdiff_t>& strides, const SubspacePass& pass);
  std::size_t entries() const { return entries_; }
  // out[0 .. entries()) for the cell whose coset in mode n is coset[n].
  void fill(const std::size_t* coset, std::ptrdiff_t* out) const;

private:
  int order_, cell_;
  std::size_t entries_;
  std::vector<std::vector<std::ptrdiff_t>> element_;  // element_[n][a * cell + t]
};

// The pass over the tensor: every cell gathered, its D mode products applied, scattered back.
// `threads` = 0 uses every hardware thread.
template <class T>
void apply_subspace_blocks(HostTensor<T>& tensor, const SubspacePass& pass, const SubspaceBlocks<T>& blocks, int threads);

template <class T>
void apply_subspace_blocks_to_factors(std::vector<Matrix<T>>& factors, const SubspacePass& pass,
                                      const SubspaceBlocks<T>& blocks);

}  // namespace tensordiag::runtime
