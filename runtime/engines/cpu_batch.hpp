#pragma once
// The engine table's CPU entry (engine.hpp): the built-in rule named by `run.rule`, evaluated on
// the host as the DSL writes it (cpu_engine.hpp), the tensors one by one, `settings.threads`
// resolved (0 = every hardware thread) and named in Result::device.
#include <span>
#include <string>
#include <vector>

#include "runtime/engines/engine.hpp"

namespace tensordiag::runtime {

// Result::device of a CPU run: the CPU's model name and the threads ("... (2 threads)"); threads
// 0 = every hardware thread.
std::string cpu_device_name(int threads);

template <class T>
std::vector<Result<T>> run_cpu_batch(std::span<const HostTensor<T>> tensors, const EngineRun& run);

extern template std::vector<Result<float>> run_cpu_batch(std::span<const HostTensor<float>>, const EngineRun&);
extern template std::vector<Result<double>> run_cpu_batch(std::span<const HostTensor<double>>, const EngineRun&);

}  // namespace tensordiag::runtime
