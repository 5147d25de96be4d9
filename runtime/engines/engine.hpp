#pragma once
// The engines diagonalize() chooses from, as one table (engine_table.cpp) rather than a chain of
// ifs. An engine is a backend's way of running: it says why it declines a request (a shape its
// kernels cannot serve, a feature it lacks), or runs every tensor of it. diagonalize() takes the
// first engine of the chosen backend, in table order, that does not decline; when every GPU engine
// declines, --backend auto runs on the CPU with a note that quotes the reason, and cuda fails with it.
//
// Growth goes through the same table: a scalar type (complex) is another instantiation of Engine<T>
// with its own entries (the GPU engine's complex kernels, the CPU's complex engine); a structure (symmetric tensors) is a field of the request that engines
// without it decline; a multi-rank engine is an entry that declines unless it was given ranks.
#include <complex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/lowered_rule.hpp"
#include "runtime/algorithm/run_result.hpp"
#include "runtime/algorithm/run_settings.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

// What an engine is asked to do besides the tensors: the settings and the rule, lowered once.
struct EngineRun {
  RunSettings settings;
  codegen::LoweredRule rule;
};

template <class T>
struct Engine {
  std::string_view name;  // for notes and reports: "cpu", "cuda_one_block", "cuda_qubit", "cuda"
  Backend backend;
  // Why this engine does not take `count` tensors shaped like `first` (all share its shape and
  // layout), or nullopt when it does.
  std::optional<std::string> (*declines)(const HostTensor<T>& first, std::size_t count, const EngineRun& run);
  // One result per tensor, in order. Throws user_error (no device, too large for it) or cuda_error.
  std::vector<Result<T>> (*run)(std::span<const HostTensor<T>> tensors, const EngineRun& run);
  // Whether it computes the HOSVD start (RunSettings::init) itself, where its data lies: its history,
  // factors and timings then say so as diagonalize()'s host start would.
  bool starts_from_hosvd;
};

// A table entry's run for an engine that takes the tensors of a batch one after the other.
template <class T, Result<T> (*run_one)(const HostTensor<T>&, const EngineRun&)>
std::vector<Result<T>> one_after_another(std::span<const HostTensor<T>> tensors, const EngineRun& run) {
  std::vector<Result<T>> results;
  for (const HostTensor<T>& tensor : tensors) results.push_back(run_one(tensor, run));
  return results;
}

// Every engine for the scalar type, in the order of preference within a backend.
template <class T>
std::span<const Engine<T>> engines();

extern template std::span<const Engine<float>> engines();
extern template std::span<const Engine<double>> engines();
extern template std::span<const Engine<std::complex<float>>> engines();
extern template std::span<const Engine<std::complex<double>>> engines();

}  // namespace tensordiag::runtime
