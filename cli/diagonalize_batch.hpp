#pragma once
// `tensordiag diagonalize IN.npy --out DIR --batch`: every tensor of a (B, N, .., N) file, written
// stacked: DIR/core.npy (B, N, .., N), DIR/factor_n.npy (B, N, N), DIR/report.json with one report
// per tensor. All or nothing, as for one tensor.
#include "cli/diagonalize_command.hpp"

namespace tensordiag::cli {

int run_diagonalize_batch(const DiagonalizeArguments& arguments);

}  // namespace tensordiag::cli
