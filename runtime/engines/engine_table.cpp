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

// The one-block path first: the whole run in one launch where it serves (gpu_small_engine.hpp);
// then N = 2 with large D, two reads of the tensor a sweep (gpu_qubit_engine.hpp).
template <class T>
constexpr Engine<T> engine_table[] = {
    {"cuda_one_block", Backend::cuda, one_block_declines<T>, run_gpu_small_batch<T>},
    {"cuda_qubit", Backend::cuda, qubit_engine_declines<T>, one_after_another<T, run_gpu_qubit_engine<T>>},
    {"cuda", Backend::cuda, gpu_engine_declines<T>, one_after_another<T, run_gpu_engine<T>>},
    {"cpu", Backend::cpu, takes_everything<T>, run_cpu_batch<T>},
};

}  // namespace

template <class T>
std::span<const Engine<T>> engines() {
  return engine_table<T>;
}

template std::span<const Engine<float>> engines();
template std::span<const Engine<double>> engines();

}  // namespace tensordiag::runtime
