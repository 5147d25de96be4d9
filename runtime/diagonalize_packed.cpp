#include "runtime/diagonalize_packed.hpp"

#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "codegen/kernel_spec.hpp"
#include "runtime/algorithm/cancellation.hpp"
#include "runtime/algorithm/packed_figures.hpp"
#include "runtime/algorithm/packed_hosvd_start.hpp"
#include "runtime/algorithm/packed_transform.hpp"
#include "runtime/algorithm/xor_schedule.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/core/stopwatch.hpp"
#include "runtime/engines/cpu_packed_engine.hpp"
#include "runtime/engines/cpu_packed_route.hpp"
#include "runtime/engines/gpu_packed_engine.hpp"
#include "runtime/run_from_hosvd.hpp"
#include "runtime/run_plan.hpp"

namespace tensordiag::runtime {

namespace {

// The options as the packed engines run them: structure symmetric.
Options packed_run_options(const Options& options) {
  Options run = options;
  run.structure = Structure::symmetric;
  return run;
}

// plan_run's backend for a packed tensor: auto takes the GPU where the GPU packed engine takes the
// shape, else the CPU with a note saying why; cuda insists.
template <class T>
void settle_packed_backend(RunPlan& plan, int order, int size) {
  if (plan.backend != Backend::cuda) return;
  if (plan.asked == Backend::cuda) require_cuda_device();  // no GPU: the full-storage run's one line
  const std::optional<std::string> declined = gpu_packed_declines<T>(order, size);
  if (!declined) return;
  if (plan.asked == Backend::cuda) throw user_error("the CUDA backend cannot take this packed tensor: " + *declined);
  plan.backend = Backend::cpu;
  plan.notes.push_back("the GPU engine cannot take this packed tensor (" + *declined + "): running on the CPU");
}

std::string gigabytes(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GB", static_cast<double>(bytes) / 1e9);
  return text;
}

template <class T>
void check_finite_entries(const PackedSymmetricTensor<T>& tensor) {
  for (std::size_t e = 0; e < tensor.count(); ++e)
    if (!std::isfinite(tensor.data()[e])) {
      std::vector<int> index(static_cast<std::size_t>(tensor.order()));
      tensor.index().unrank(e, index);
      std::string text;
      for (const int i : index) text += (text.empty() ? "" : ", ") + std::to_string(i);
      throw user_error("the packed tensor holds " + std::string(std::isnan(tensor.data()[e]) ? "NaN" : "Inf") +
                       " at entry " + std::to_string(e) + " (index (" + text + "))");
    }
}

}  // namespace

void check_packed_options(int order, int size, const Options& options) {
  check_packed_shape(order, size);
  if (options.structure == Structure::skew)
    throw user_error("packed storage holds symmetric tensors; structure skew takes full storage");
  if (options.backend == Backend::cuda && order > codegen::packed_symmetric_max_order)
    throw user_error("packed storage on the GPU takes order D <= " + std::to_string(codegen::packed_symmetric_max_order) +
                     " (order " + std::to_string(order) + "): use --backend cpu or auto");
  if (options.schedule == SweepSchedule::xor_subspaces && !has_xor_schedule(size))
    throw user_error("the xor schedule takes N a power of two (N = " + std::to_string(size) +
                     "): use --schedule round-robin or auto");
  check_options(packed_run_options(options));  // rule max_diag, no pivot check, the numbers
  // The verification and the HOSVD start's rotated tensor both take the partly symmetric products.
  const bool hosvd = options.init == Init::hosvd;
  if ((options.verify || hosvd) && packed_transform_bytes(order, size) > max_packed_verification_bytes)
    throw user_error(std::string(options.verify ? "verifying" : "starting from the HOSVD of") +
                     " a packed tensor of order " + std::to_string(order) + " and size " + std::to_string(size) +
                     " needs " + gigabytes(packed_transform_bytes(order, size)) + " for its mode products (more than " +
                     gigabytes(max_packed_verification_bytes) + "): run it with " +
                     (options.verify && hosvd ? "--no-verify and --init identity" : options.verify ? "--no-verify" : "--init identity"));
}

namespace {

// A packed run planned once (diagonalize_packed, and a batch for all of its tensors): the options as
// the packed engines run them and the backend they settled on.
struct PackedPlan {
  Options run_options;
  RunPlan plan;
};

template <class T>
PackedPlan plan_packed(int order, int size, const Options& options) {
  const Options run_options = packed_run_options(options);
  RunPlan plan = plan_run<T>(run_options);
  settle_packed_backend<T>(plan, order, size);
  return {run_options, std::move(plan)};
}

// One tensor's run on the planned backend, after the checks: its HOSVD start if asked, the sweeps,
// the result described and verified.
template <class T>
PackedResult<T> run_planned(const PackedSymmetricTensor<T>& tensor, const Options& options, const PackedPlan& packed) {
  const RunPlan& plan = packed.plan;
  // The CPU runs orders <= 4 through full storage where it is small (cpu_packed_route.hpp).
  const bool through_full =
      plan.backend == Backend::cpu && packed_takes_full_route<T>(tensor.order(), tensor.size());
  const auto run_engine = [&plan, through_full](const PackedSymmetricTensor<T>& start, const RunSettings& settings) {
    if (plan.backend == Backend::cuda) return run_gpu_packed_engine(start, settings, plan.run.rule);
    return through_full ? run_packed_through_full(start, settings) : run_cpu_packed_engine(start, settings);
  };
  PackedResult<T> out;
  if (options.init == Init::hosvd) {
    // Q = G_1's eigenvectors in every mode (packed_hosvd_start.hpp); the sweeps run on T x_n Q^T.
    const PackedHosvdStart<T> start = packed_hosvd_start(tensor, options.threads);
    const double off_input = std::sqrt(packed_core_figures(tensor, options.threads).off_norm2);
    const double off_start = std::sqrt(packed_core_figures(start.rotated, options.threads).off_norm2);
    const double scale = off_input > 0 ? off_start / off_input : 0.0;
    out = run_engine(start.rotated, run_from_start(plan, scale).settings);
    finish_from_start(out.run, scale, std::vector<Matrix<T>>(static_cast<std::size_t>(tensor.order()), start.basis),
                      start.seconds);
  } else {
    out = run_engine(tensor, plan.run.settings);
  }
  describe_run(out.run, packed.run_options, plan,
               plan.backend == Backend::cuda ? "cuda_packed" : through_full ? "cpu" : "cpu_packed");
  if (options.verify) {
    const Stopwatch stopwatch;
    Verification verification;
    verification.reconstruction_error =
        packed_reconstruction_error(tensor, out.core, out.run.factors.front(), options.threads);
    verification.orthogonality_error = orthogonality_error(std::vector<Matrix<T>>{out.run.factors.front()});
    verification.seconds = stopwatch.seconds();
    out.run.verification = verification;
  }
  return out;
}

}  // namespace

template <class T>
PackedResult<T> diagonalize_packed(const PackedSymmetricTensor<T>& tensor, const Options& options) {
  check_packed_options(tensor.order(), tensor.size(), options);
  check_finite_entries(tensor);
  return run_planned(tensor, options, plan_packed<T>(tensor.order(), tensor.size(), options));
}

// The checks and the plan once for the batch, then each tensor's run as diagonalize_packed's.
template <class T>
std::vector<PackedResult<T>> diagonalize_packed_batch(const std::vector<PackedSymmetricTensor<T>>& tensors,
                                                      const Options& options) {
  if (tensors.empty()) throw user_error("the batch holds no tensor");
  for (const auto& tensor : tensors)
    if (tensor.order() != tensors.front().order() || tensor.size() != tensors.front().size())
      throw user_error("a batch holds tensors of one shape");
  check_packed_options(tensors.front().order(), tensors.front().size(), options);
  for (const auto& tensor : tensors) check_finite_entries(tensor);  // before the first run starts
  const PackedPlan packed = plan_packed<T>(tensors.front().order(), tensors.front().size(), options);
  std::vector<PackedResult<T>> results;
  results.reserve(tensors.size());
  for (const auto& tensor : tensors) {
    stop_if_cancelled(options.cancelled);
    results.push_back(run_planned(tensor, options, packed));
  }
  return results;
}

template PackedResult<float> diagonalize_packed(const PackedSymmetricTensor<float>&, const Options&);
template PackedResult<double> diagonalize_packed(const PackedSymmetricTensor<double>&, const Options&);
template std::vector<PackedResult<float>> diagonalize_packed_batch(const std::vector<PackedSymmetricTensor<float>>&,
                                                                   const Options&);
template std::vector<PackedResult<double>> diagonalize_packed_batch(const std::vector<PackedSymmetricTensor<double>>&,
                                                                    const Options&);

}  // namespace tensordiag::runtime
