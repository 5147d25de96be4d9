#include "runtime/diagonalize_complex.hpp"

#include <cmath>
#include <string>

#include "codegen/builtin_rules.hpp"
#include "runtime/algorithm/verification.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/engines/cpu_batch.hpp"
#include "runtime/engines/cpu_complex_engine.hpp"
#include "runtime/run_from_hosvd.hpp"
#include "runtime/run_plan.hpp"

namespace tensordiag::runtime {

namespace {

// What the complex engine cannot do, as the one-line user_error its front ends print.
void check_complex_options(const Options& options) {
  if (codegen::find_builtin_rule(options.rule) && !rule_has_complex_lift(options.rule))
    throw user_error("rule '" + options.rule +
                     "' is real-only (its objective has no complex lift): complex tensors take rule max_diag");
  if (options.structure != Structure::general)
    throw user_error("structure " + std::string(to_string(options.structure)) +
                     " takes real tensors; complex tensors run with structure general");
  if (options.schedule == SweepSchedule::xor_subspaces)
    throw user_error("complex tensors run the round robin; the xor schedule is not available for them");
  if (options.backend == Backend::cuda)
    throw user_error("the CUDA backend takes real tensors; complex tensors run on the CPU (backend cpu or auto)");
}

}  // namespace

template <class R>
Result<std::complex<R>> diagonalize_complex(const HostTensor<std::complex<R>>& tensor, const Options& options) {
  check_complex_options(options);
  check_shape_and_values(tensor);
  Options on_cpu = options;
  on_cpu.backend = Backend::cpu;
  RunPlan plan = plan_run<std::complex<R>>(on_cpu);
  if (options.backend == Backend::automatic && cuda_device())
    plan.notes.push_back("complex tensors run on the CPU engine (the GPU engines take real tensors)");
  stop_if_cancelled(options.cancelled);
  using T = std::complex<R>;
  const auto run_engine = [](const HostTensor<T>& start, const EngineRun& run) {
    return run_cpu_complex_engine(start, run.settings);
  };
  Result<T> result = options.init == Init::hosvd ? run_from_hosvd(tensor, plan, run_engine)
                                                 : run_engine(tensor, plan.run);
  result.device = cpu_device_name(plan.run.settings.threads);
  describe_run(result, options, plan, "cpu_complex");
  if (options.verify) result.verification = verify(tensor, result);
  return result;
}

template Result<std::complex<float>> diagonalize_complex(const HostTensor<std::complex<float>>&, const Options&);
template Result<std::complex<double>> diagonalize_complex(const HostTensor<std::complex<double>>&, const Options&);

}  // namespace tensordiag::runtime
