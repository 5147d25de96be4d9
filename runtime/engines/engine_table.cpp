#include "runtime/algorithm/diagonal_phases.hpp"
#include "runtime/core/scalar.hpp"
#include "runtime/engines/cpu_batch.hpp"
#include "runtime/engines/cpu_complex_engine.hpp"
#include "runtime/engines/cpu_complex_symmetric_engine.hpp"
#include "runtime/engines/cpu_packed_route.hpp"
#include "runtime/engines/engine.hpp"
#include "runtime/engines/gpu_engine.hpp"
#include "runtime/engines/gpu_qubit_engine.hpp"
#include "runtime/engines/gpu_small_engine.hpp"

namespace tensordiag::runtime {

namespace {

template <class T>
std::optional<std::string> takes_everything(const HostTensor<T>&, std::size_t, const EngineRun&) {
  return std::nullopt;
}

// The N = 2 engine has no symmetric or skew angles: such a run is another engine's. The one-block
// engine takes structure symmetric and skew (its small_tensor variants: one rotation a pair in
// every mode; DESIGN.md section 7).
template <class T, std::optional<std::string> (*declines)(const HostTensor<T>&, std::size_t, const EngineRun&),
          bool takes_structures>
std::optional<std::string> structures_served(const HostTensor<T>& first, std::size_t count, const EngineRun& run) {
  const Structure structure = run.settings.structure;
  if (structure != Structure::general && !takes_structures)
    return "structure " + std::string(to_string(structure)) + " runs on the general and one-block engines (cuda, "
           "cuda_one_block, cpu)";
  return declines(first, count, run);
}

// The one-block path first: the whole run in one launch where it serves (gpu_small_engine.hpp);
// then N = 2 with large D, two reads of the tensor a sweep (gpu_qubit_engine.hpp). On the CPU,
// symmetric tensors of order >= 5 through packed storage (cpu_packed_route.hpp), then the rest.
template <class T>
constexpr Engine<T> engine_table[] = {
    {"cuda_one_block", Backend::cuda, structures_served<T, one_block_declines<T>, true>, run_gpu_small_batch<T>, false},
    {"cuda_qubit", Backend::cuda, structures_served<T, qubit_engine_declines<T>, false>,
     one_after_another<T, run_gpu_qubit_engine<T>>, true},
    {"cuda", Backend::cuda, gpu_engine_declines<T>, one_after_another<T, run_gpu_engine<T>>, true},
    {"cpu_packed", Backend::cpu, cpu_packed_route_declines<T>, one_after_another<T, run_cpu_packed_route<T>>, false},
    {"cpu", Backend::cpu, takes_everything<T>, run_cpu_batch<T>, false},
};

template <class R>
Result<std::complex<R>> run_cpu_complex(const HostTensor<std::complex<R>>& tensor, const EngineRun& run) {
  Result<std::complex<R>> result = run.settings.structure == Structure::symmetric
                                       ? run_cpu_complex_symmetric_engine(tensor, run.settings)
                                       : run_cpu_complex_engine(tensor, run.settings);
  result.device = cpu_device_name(run.settings.threads);
  return result;
}

// The one-block path's batch, each result's phases fixed.
template <class R>
std::vector<Result<std::complex<R>>> run_gpu_small_complex(std::span<const HostTensor<std::complex<R>>> tensors,
                                                           const EngineRun& run) {
  std::vector<Result<std::complex<R>>> results = run_gpu_small_batch(tensors, run);
  for (Result<std::complex<R>>& result : results) fix_complex_phases(result, run.settings.structure);
  return results;
}

// Complex tensors (issue 11, item 3): the one-block, N = 2 (complex64) and general GPU engines'
// kernels generated for a complex scalar, or the CPU's complex engine; every result's diagonal is made real >= 0 on the host
// (diagonal_phases.hpp; the general and N = 2 GPU engines do it themselves, before they verify on
// the device).
// Structure symmetric: at orders 2 and 3 the same engines with the unitary step (small_tensor's and
// symmetric_angles' complex branches), or the CPU's (cpu_complex_symmetric_engine.hpp); from order 4
// the general GPU engine with its steps searched on the host (gpu_host_symmetric_steps.hpp), or the
// CPU's; the one-block engine declines those orders.
template <class R>
constexpr Engine<std::complex<R>> complex_engine_table[] = {
    {"cuda_one_block", Backend::cuda, one_block_declines<std::complex<R>>, run_gpu_small_complex<R>, false},
    {"cuda_qubit", Backend::cuda, structures_served<std::complex<R>, qubit_engine_declines<std::complex<R>>, false>,
     one_after_another<std::complex<R>, run_gpu_qubit_engine<std::complex<R>>>, true},
    {"cuda", Backend::cuda, gpu_engine_declines<std::complex<R>>,
     one_after_another<std::complex<R>, run_gpu_engine<std::complex<R>>>, true},
    {"cpu_complex", Backend::cpu, takes_everything<std::complex<R>>,
     one_after_another<std::complex<R>, run_cpu_complex<R>>, false},
};

}  // namespace

template <class T>
std::span<const Engine<T>> engines() {
  if constexpr (is_complex_v<T>) return complex_engine_table<real_t<T>>;
  else return engine_table<T>;
}

template std::span<const Engine<float>> engines();
template std::span<const Engine<double>> engines();
template std::span<const Engine<std::complex<float>>> engines();
template std::span<const Engine<std::complex<double>>> engines();

}  // namespace tensordiag::runtime
