#pragma once
// `tensordiag diagonalize IN.npy --out DIR --batch`: every tensor of a (B, N, .., N) file, written
// stacked: DIR/core.npy (B, N, .., N), DIR/factor_n.npy (B, N, N), DIR/report.json with one report
// per tensor. All or nothing, as for one tensor.
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "cli/diagonalize_command.hpp"

namespace tensordiag::cli {

int run_diagonalize_batch(const DiagonalizeArguments& arguments);

// A batch (a variant of vectors of tensors) in Tensor's dtype: moved as it is when it already is,
// else converted tensor by tensor through runtime's convert of the one-tensor variant AnyOne (found
// by argument-dependent lookup where the batch is converted: npy_packed.hpp declares the packed one).
template <class Tensor, class AnyOne, class AnyBatch>
std::vector<Tensor> converted_batch(AnyBatch&& batch) {
  if (auto* same = std::get_if<std::vector<Tensor>>(&batch)) return std::move(*same);
  using T = typename std::decay_t<decltype(std::declval<Tensor>().values())>::value_type;
  std::vector<Tensor> out;
  std::visit(
      [&out](const auto& tensors) {
        for (const auto& t : tensors) out.push_back(std::get<Tensor>(convert(AnyOne(t), runtime::dtype_of<T>())));
      },
      batch);
  return out;
}

// A batch's report.json ({"batch": B, "tensors": [report, ...]}, one full report a run) staged in
// `output`, and its summary line: the device, how many converged, the largest verification errors.
template <class T>
std::string stage_batch_report(AtomicOutput& output, const std::vector<const runtime::Result<T>*>& runs,
                               const runtime::Options& options, const runtime::ReportInput& input);

}  // namespace tensordiag::cli
