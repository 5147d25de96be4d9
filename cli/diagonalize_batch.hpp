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

// Whether the variant Variant has the alternative X.
template <class X, class Variant>
struct has_alternative : std::false_type {};
template <class X, class... Ts>
struct has_alternative<X, std::variant<Ts...>> : std::bool_constant<(std::is_same_v<X, Ts> || ...)> {};

// A batch (a variant of vectors of tensors) as Tensors: moved as it is when it already is, else
// converted tensor by tensor by `convert_one`, each source tensor freed once converted (the batch is
// never held twice whole).
template <class Tensor, class AnyBatch, class ConvertOne>
std::vector<Tensor> converted_batch(AnyBatch batch, ConvertOne convert_one) {
  if constexpr (has_alternative<std::vector<Tensor>, AnyBatch>::value)
    if (auto* same = std::get_if<std::vector<Tensor>>(&batch)) return std::move(*same);
  std::vector<Tensor> out;
  std::visit(
      [&](auto& tensors) {
        out.reserve(tensors.size());
        for (auto& t : tensors) {
          out.push_back(convert_one(t));
          t = {};
        }
      },
      batch);
  return out;
}

// The same through runtime's convert of the one-tensor variant AnyOne to Tensor's dtype (found by
// argument-dependent lookup where the batch is converted: npy_packed.hpp declares the packed one).
template <class Tensor, class AnyOne, class AnyBatch>
std::vector<Tensor> converted_batch(AnyBatch batch) {
  using T = typename std::decay_t<decltype(std::declval<Tensor>().values())>::value_type;
  return converted_batch<Tensor>(std::move(batch), [](const auto& t) {
    return std::get<Tensor>(convert(AnyOne(t), runtime::dtype_of<T>()));
  });
}

// A batch's report.json ({"batch": B, "tensors": [report, ...]}, one full report a run) staged in
// `output`, and its summary line: the device, how many converged, the largest verification errors.
template <class T>
std::string stage_batch_report(AtomicOutput& output, const std::vector<const runtime::Result<T>*>& runs,
                               const runtime::Options& options, const runtime::ReportInput& input);

}  // namespace tensordiag::cli
