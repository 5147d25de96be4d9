#pragma once
// The end of a structure skew run, on either engine: every block entry C[B_k] made >= 0 by the
// sign flip of index kD in every mode and of column kD of Q (exact: C x S ... x S and Q S with
// S = diag(+-1), a rotation by pi in the plane (kD, kD)), and Q given to every mode.
#include "runtime/algorithm/run_result.hpp"

namespace tensordiag::runtime {

// result.factors.front() is Q (the others, equal to it, are replaced by copies); the last sweep's
// record takes the flipped blocks' sum, the only figure the flips change.
template <class T>
void make_skew_blocks_nonnegative(Result<T>& result);

extern template void make_skew_blocks_nonnegative(Result<float>&);
extern template void make_skew_blocks_nonnegative(Result<double>&);

}  // namespace tensordiag::runtime
