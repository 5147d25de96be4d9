#include "runtime/engines/cpu_packed_engine.hpp"

#include <omp.h>

#include "runtime/algorithm/group_rotations.hpp"
#include "runtime/algorithm/packed_figures.hpp"
#include "runtime/algorithm/packed_rotation.hpp"
#include "runtime/algorithm/symmetric_rotation.hpp"
#include "runtime/core/stopwatch.hpp"
#include "runtime/engines/cpu_batch.hpp"
#include "runtime/engines/cpu_group_schedule.hpp"
#include "runtime/engines/cpu_sweeps.hpp"
#include "runtime/engines/group_pass.hpp"

namespace tensordiag::runtime {

template <class T>
PackedResult<T> run_cpu_packed_engine(const PackedSymmetricTensor<T>& tensor, const RunSettings& settings) {
  const Stopwatch total;
  const int threads = settings.threads > 0 ? settings.threads : omp_get_max_threads();
  PackedResult<T> out{tensor, {}};
  Result<T>& result = out.run;
  result.backend = Backend::cpu;
  result.device = cpu_device_name(threads);
  result.factors.assign(1, Matrix<T>::identity(tensor.size()));
  const PivotSchedule schedule = cpu_group_schedule(tensor.size(), settings);
  // Every pair's class positions found once for all the sweeps (and the batch's next tensors),
  // where they are few enough.
  const std::shared_ptr<const PackedClassPositions> kept =
      PackedClassPositions::shared_for(tensor.order(), tensor.size());

  sweep_core(
      out.core, result, settings, schedule, total,
      [threads](const PackedSymmetricTensor<T>& core) { return packed_core_figures(core, threads); },
      [&](PackedSymmetricTensor<T>& core, const PivotGroup& group) {
        GroupRotations<T> factor_group(1, group);
        for (std::size_t k = 0; k < group.size(); ++k) {
          const auto [p, q] = group[k];
          const dsl::Givens<double> g = symmetric_angle_for<T>(packed_pivot_values(core, p, q));
          // The rotation in the dtype, as the factor gets it and as the full engines apply it.
          const dsl::Givens<T> rounded{static_cast<T>(g.c), static_cast<T>(g.s)};
          rotate_packed(core, p, q, {static_cast<double>(rounded.c), static_cast<double>(rounded.s)}, threads,
                        kept.get());
          factor_group.at(0, k) = rounded;
        }
        apply_group_to_factors(result.factors, factor_group, threads);
      });
  result.factors.assign(static_cast<std::size_t>(tensor.order()), Matrix<T>(result.factors.front()));
  record_group_schedule(result, tensor.size(), settings, schedule);
  return out;
}

template PackedResult<float> run_cpu_packed_engine(const PackedSymmetricTensor<float>&, const RunSettings&);
template PackedResult<double> run_cpu_packed_engine(const PackedSymmetricTensor<double>&, const RunSettings&);

}  // namespace tensordiag::runtime
