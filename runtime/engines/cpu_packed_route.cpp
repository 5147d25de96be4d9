#include "runtime/engines/cpu_packed_route.hpp"

#include <type_traits>
#include <utility>
#include <vector>

#include "runtime/core/packed_symmetric.hpp"
#include "runtime/core/stopwatch.hpp"
#include "runtime/engines/cpu_packed_engine.hpp"

namespace tensordiag::runtime {

template <class T>
std::optional<std::string> cpu_packed_route_declines(const HostTensor<T>& first, std::size_t, const EngineRun& run) {
  if (run.settings.structure != Structure::symmetric) return "it takes structure symmetric";
  if constexpr (!std::is_same_v<T, double>) return "it was measured in float64 only";
  if (first.order() < cpu_packed_route_min_order)
    return "below order " + std::to_string(cpu_packed_route_min_order) + " full storage is the faster on the CPU";
  if (run.settings.eta > 0) return "the packed engine has no pivot check";
  if (run.rule.name != "max_diag") return "the packed engine runs max_diag only";
  return std::nullopt;
}

template <class T>
Result<T> run_cpu_packed_route(const HostTensor<T>& tensor, const EngineRun& run) {
  const Stopwatch packing;
  const PackedSymmetricTensor<T> packed = pack_symmetric(tensor);
  const double pack_seconds = packing.seconds();
  PackedResult<T> out = run_cpu_packed_engine(packed, run.settings);
  const Stopwatch unpacking;
  Result<T> result = std::move(out.run);  // moved, not copied: the core is the size of the input
  HostTensor<T> core = unpack_symmetric(out.core);
  result.core = HostTensor<T>(tensor.order(), tensor.size(), tensor.layout(), std::move(core.values()));
  const double copies = pack_seconds + unpacking.seconds();
  result.timings.setup_seconds += copies;
  result.timings.total_seconds += copies;
  return result;
}

template std::optional<std::string> cpu_packed_route_declines(const HostTensor<float>&, std::size_t, const EngineRun&);
template std::optional<std::string> cpu_packed_route_declines(const HostTensor<double>&, std::size_t, const EngineRun&);
template Result<float> run_cpu_packed_route(const HostTensor<float>&, const EngineRun&);
template Result<double> run_cpu_packed_route(const HostTensor<double>&, const EngineRun&);

}  // namespace tensordiag::runtime
