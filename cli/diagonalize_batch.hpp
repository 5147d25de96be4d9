#pragma once
// `tensordiag diagonalize IN.npy --out DIR --batch`: every tensor of a (B, N, .., N) file, written
// stacked: DIR/core.npy (B, N, .., N), DIR/factor_n.npy (B, N, N), DIR/report.json with one report
// per tensor. All or nothing, as for one tensor.
#include "cli/diagonalize_command.hpp"

namespace tensordiag::cli {

int run_diagonalize_batch(const DiagonalizeArguments& arguments);

// A batch's report.json ({"batch": B, "tensors": [report, ...]}, one full report a run) staged in
// `output`, and its summary line: the device, how many converged, the largest verification errors.
template <class T>
std::string stage_batch_report(AtomicOutput& output, const std::vector<const runtime::Result<T>*>& runs,
                               const runtime::Options& options, const runtime::ReportInput& input);

}  // namespace tensordiag::cli
