#pragma once
// The fused group pass (DESIGN.md section 3): all D modes' rotations of one pivot group applied to
// the tensor in one read+write pass. Rotations in different modes commute, so the pass may apply
// them in memory order, whatever the logical mode order of the micro-iterations was. Real and
// complex tensors (unitary rotations: group_rotations.hpp).
#include <cstddef>

#include "runtime/algorithm/group_rotations.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

// The entries from which a pass over them runs on the threads: below, a parallel region per group
// costs more than it saves (the CPU engines' passes, their factors and their pairs' angles).
inline constexpr std::size_t threaded_pass_entries = std::size_t{1} << 17;

// tensor <- tensor x_1 R_1^T x_2 R_2^T ... x_D R_D^T, R_n block-diagonal with the group's
// rotations of mode n. `threads` = 0 uses every hardware thread.
template <class T>
void apply_group_pass(HostTensor<T>& tensor, const GroupRotations<T>& group, int threads);
// The same pass on the N^order entries at `data` in `layout` (a row of a distributed slab:
// runtime/distributed/slab_pass.hpp).
template <class T>
void apply_group_pass(T* data, int order, int size, Layout layout, const GroupRotations<T>& group, int threads);

// x <- c x + s y, y <- c y - s x over `length` entries, as the pass rotates its runs (nothing for
// the identity): a distributed slab's rows p and q in its sliced mode.
template <class T>
void rotate_rows(T* x, T* y, std::size_t length, dsl::Givens<T> g);

// M_n <- M_n R_n for every mode n: columns p, q of M_n mix as M_p <- c M_p + s M_q, M_q <- -s M_p + c M_q
// (complex: M_p <- al M_p + be M_q, M_q <- al M_q - conj(be) M_p), rows on up to `threads` threads
// (0: OpenMP's default) where a factor has threaded_pass_entries or more; the same result on any number.
template <class T>
void apply_group_to_factors(std::vector<Matrix<T>>& factors, const GroupRotations<T>& group, int threads = 1);

}  // namespace tensordiag::runtime
