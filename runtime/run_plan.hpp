#pragma once
// What every run settles before an engine is chosen (diagonalize.cpp, diagonalize_distributed.cpp):
// valid options, the rule lowered once, the stop criteria for the dtype, the backend; and what the
// front ends read of a result besides the engine's figures.
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/builtin_rules.hpp"
#include "runtime/algorithm/run_options.hpp"
#include "runtime/algorithm/run_result.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/core/scalar.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/engines/engine.hpp"

namespace tensordiag::runtime {

inline void check_options(const Options& options) {
  if (options.max_sweeps < 1) throw user_error("max_sweeps must be at least 1");
  if (!(options.eta >= 0) || !std::isfinite(options.eta)) throw user_error("eta must be a finite number >= 0");
  // tol = 0 asks for no tolerance stop: off_rel <= 0 only when the core is exactly diagonal.
  if (options.tol && !(*options.tol >= 0 && std::isfinite(*options.tol)))
    throw user_error("tol must be a finite number >= 0 (0: no tolerance stop)");
  if (options.stall_tol && !(*options.stall_tol >= 0 && std::isfinite(*options.stall_tol)))
    throw user_error("stall_tol must be a finite number >= 0");
  if (options.threads < 0 || options.threads > max_threads)
    throw user_error("threads must be >= 0 and <= " + std::to_string(max_threads));
  // The symmetric and skew engines maximize ||diag C||^2 (skew: its block entries) over one shared
  // rotation; the trace rule and the pivot check (whose Lambda is the general engine's, one factor
  // per mode) are not derived for them.
  if (options.structure != Structure::general) {
    const std::string structure(to_string(options.structure));
    if (options.rule != "max_diag")
      throw user_error("structure " + structure + " maximizes ||diag C||^2 (rule max_diag" +
                       (options.structure == Structure::skew ? ", on the blocks" : "") + "); rule '" + options.rule +
                       "' is not available for it");
    if (options.eta != 0)
      throw user_error("the pivot check (eta > 0) is not available with structure " + structure);
    if (options.schedule == SweepSchedule::xor_subspaces && options.structure == Structure::skew)
      throw user_error("structure " + structure + " runs the round robin; the xor schedule is not available for it");
  }
}

// What every run settles before an engine is chosen: valid options, the rule lowered once, the
// stop criteria for the dtype, and the backend (auto takes the GPU when there is one, with a note
// when it cannot; cuda insists on it).
struct RunPlan {
  EngineRun run;
  Backend asked;    // as the options say
  Backend backend;  // auto settled
  std::vector<std::string> notes;
};

template <class T>
RunPlan plan_run(const Options& options) {
  check_options(options);
  if (!codegen::find_builtin_rule(options.rule))
    throw user_error("unknown rule '" + options.rule + "': use " + codegen::builtin_rule_choices());
  codegen::LoweredRule rule = codegen::lower_builtin_rule(options.rule);
  constexpr bool single = std::is_same_v<real_t<T>, float>;  // float32, complex64
  const StopCriteria stop{options.max_sweeps, options.tol.value_or(single ? 1e-5 : 1e-12),
                          options.stall_tol.value_or(single ? 1e-6 : 1e-13), rule.stalls_on};
  const RunSettings settings{stop,          options.eta,    options.threads,  options.on_sweep,
                             options.pivot_norm, options.verify, options.cancelled, options.schedule,
                             options.structure, options.init};
  RunPlan plan{{settings, std::move(rule)}, options.backend, options.backend, {}};
  if (options.backend == Backend::automatic) {
    plan.backend = cuda_device() ? Backend::cuda : Backend::cpu;
    if (plan.backend == Backend::cpu)
      plan.notes.push_back("no GPU (" + cuda_unavailable_reason() + "): running on the CPU");
  }
  return plan;
}

template <class T>
void describe_run(Result<T>& result, const Options& options, const RunPlan& plan, std::string_view engine) {
  result.engine = engine;
  if (result.schedule.empty()) {  // the engines with one order only: the round robin
    result.schedule = to_string(SweepSchedule::round_robin);
    result.passes_per_sweep = result.core.size() % 2 == 0 ? result.core.size() - 1 : result.core.size();
  }
  result.notes = plan.notes;
  result.rule = options.rule;
  result.structure = options.structure;
  result.stalls_on = plan.run.rule.stalls_on;
  result.eta = options.eta;
  result.tol = plan.run.settings.stop.tol;
  result.stall_tol = plan.run.settings.stop.stall_tol;
}

}  // namespace tensordiag::runtime
