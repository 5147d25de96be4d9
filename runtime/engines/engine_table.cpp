#include "runtime/engines/cpu_batch.hpp"
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

// The one-block and N = 2 engines have no symmetric angles: a symmetric run (one Q, the same
// rotation in every mode; DESIGN.md section 7) is the general GPU engine's or the CPU's.
template <class T, std::optional<std::string> (*declines)(const HostTensor<T>&, std::size_t, const EngineRun&)>
std::optional<std::string> general_structure_only(const HostTensor<T>& first, std::size_t count, const EngineRun& run) {
  if (run.settings.structure != Structure::general)
    return "structure " + std::string(to_string(run.settings.structure)) +
           " runs on the general engines only (cuda, cpu)";
  return declines(first, count, run);
}

// The one-block path first: the whole run in one launch where it serves (gpu_small_engine.hpp);
// then N = 2 with large D, two reads of the tensor a sweep (gpu_qubit_engine.hpp).
template <class T>
constexpr Engine<T> engine_table[] = {
    {"cuda_one_block", Backend::cuda, general_structure_only<T, one_block_declines<T>>, run_gpu_small_batch<T>, false},
    {"cuda_qubit", Backend::cuda, general_structure_only<T, qubit_engine_declines<T>>,
     one_after_another<T, run_gpu_qubit_engine<T>>, false},
    {"cuda", Backend::cuda, gpu_engine_declines<T>, one_after_another<T, run_gpu_engine<T>>, true},
    {"cpu", Backend::cpu, takes_everything<T>, run_cpu_batch<T>, false},
};

}  // namespace

template <class T>
std::span<const Engine<T>> engines() {
  return engine_table<T>;
}

template std::span<const Engine<float>> engines();
template std::span<const Engine<double>> engines();

}  // namespace tensordiag::runtime
