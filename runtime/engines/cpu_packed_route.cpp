#include "runtime/engines/cpu_packed_route.hpp"

#include <cmath>
#include <type_traits>
#include <utility>
#include <vector>

#include "runtime/core/packed_symmetric.hpp"
#include "runtime/core/stopwatch.hpp"
#include "runtime/engines/cpu_batch.hpp"
#include "runtime/engines/cpu_packed_engine.hpp"
#include "runtime/engines/cpu_symmetric_engine.hpp"
#include "runtime/engines/tuning_environment.hpp"

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

template <class T>
bool packed_takes_full_route(int order, int size) {
  if (order > packed_full_route_max_order - (std::is_same_v<T, double> ? 1 : 0)) return false;
  const long long asked = packed_full_bytes_from_environment();
  const double bound = asked >= 0 ? static_cast<double>(asked) : static_cast<double>(packed_full_route_default_bytes);
  return std::pow(static_cast<double>(size), order) * sizeof(T) <= bound;
}

template <class T>
PackedResult<T> run_packed_through_full(const PackedSymmetricTensor<T>& tensor, const RunSettings& settings) {
  const Stopwatch unpacking;
  const HostTensor<T> full = unpack_symmetric(tensor);
  const double unpack_seconds = unpacking.seconds();
  PackedResult<T> out;
  out.run = run_cpu_symmetric_engine(full, settings);
  const Stopwatch packing;
  out.core = pack_symmetric(out.run.core);
  out.run.core = HostTensor<T>();  // a packed result's full core stays empty (packed_result.hpp)
  const double copies = unpack_seconds + packing.seconds();
  out.run.timings.setup_seconds += copies;
  out.run.timings.total_seconds += copies;
  out.run.device = cpu_device_name(settings.threads);
  return out;
}

template std::optional<std::string> cpu_packed_route_declines(const HostTensor<float>&, std::size_t, const EngineRun&);
template std::optional<std::string> cpu_packed_route_declines(const HostTensor<double>&, std::size_t, const EngineRun&);
template Result<float> run_cpu_packed_route(const HostTensor<float>&, const EngineRun&);
template Result<double> run_cpu_packed_route(const HostTensor<double>&, const EngineRun&);
template bool packed_takes_full_route<float>(int, int);
template bool packed_takes_full_route<double>(int, int);
template PackedResult<float> run_packed_through_full(const PackedSymmetricTensor<float>&, const RunSettings&);
template PackedResult<double> run_packed_through_full(const PackedSymmetricTensor<double>&, const RunSettings&);

}  // namespace tensordiag::runtime
