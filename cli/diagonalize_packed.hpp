#pragma once
// `tensordiag diagonalize IN.npy --packed D --out DIR`: a symmetric tensor in packed storage
// (runtime/diagonalize_packed.hpp), T = C x_1 Q ... x_D Q with C written packed as core.npy, every
// factor_n.npy the one Q, report.json with "layout": "packed".
#include "cli/diagonalize_command.hpp"

namespace tensordiag::cli {

// --batch, --distributed and --devices are user_errors with it.
int run_diagonalize_packed(const DiagonalizeArguments& arguments);

}  // namespace tensordiag::cli
