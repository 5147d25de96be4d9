#pragma once
// What a run returns (DESIGN.md section 5): the core, the factors, the convergence history per
// sweep, why it stopped, which backend and device ran it, where the time went, and the checks of
// the result when asked.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dsl/rule_info.hpp"
#include "runtime/algorithm/pivot_norm_bounds.hpp"
#include "runtime/algorithm/verification.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

enum class Backend { automatic, cpu, cuda };
enum class StopReason { max_sweeps, tolerance, stalled, callback };

std::string_view to_string(Backend backend);
std::string_view to_string(StopReason reason);

// One line of the convergence history. Sweep 0 describes the input.
struct SweepRecord {
  int sweep = 0;
  double off_rel = 1.0;      // off(C) / off(T), off a direct sum of squares (cuda_qubit: see gpu_qubit_engine.hpp)
  double diag_norm2 = 0.0;   // ||diag C||^2 = sum_i C[i, .., i]^2
  double trace = 0.0;        // sum_i C[i, .., i], the objective of max_trace
  double seconds = 0.0;      // wall time of this sweep alone
};

struct Timings {
  double setup_seconds = 0.0;    // allocation, copies, schedule
  double sweeps_seconds = 0.0;   // all sweeps including convergence figures
  double total_seconds = 0.0;    // call to return
  double compile_seconds = 0.0;  // cuda: generating, compiling (or fetching from the cache) and loading kernels
  double init_seconds = 0.0;     // Init::hosvd: the start's Gram matrices, eigenvectors and rotation (in setup)
};

template <class T>
struct Result {
  HostTensor<T> core;
  std::vector<Matrix<T>> factors;  // M_1 .. M_D, N x N, orthogonal
  std::vector<SweepRecord> history;
  StopReason stop_reason = StopReason::max_sweeps;
  Backend backend = Backend::cpu;  // the backend that ran
  std::string engine;              // the engine of that backend that ran: cpu, cuda, cuda_one_block, cuda_qubit
  std::string schedule;             // the sweep's order that ran: "xor" or "round-robin"
  int passes_per_sweep = 0;         // passes over the tensor a sweep makes (groups, or subspaces for xor)
  std::vector<std::string> kernels;  // GPU: the kernel kinds it loaded (which angles, which pass)
  std::string device;              // the CPU's model and threads, or the GPU's name
  std::vector<std::string> notes;  // for the caller to show: e.g. auto fell back to the CPU
  std::string rule;
  Structure structure = Structure::general;  // symmetric: factors holds one Q D times
  bool hosvd_start = false;  // the factors started from the HOSVD (Init::hosvd), not the identity
  bool hosvd_on_device = false;  // ... computed on the GPU by the engine (gpu_hosvd_start.hpp), not on the host
  dsl::StallFigure stalls_on = dsl::StallFigure::diag_norm2;  // the rule's, for the stop summary
  double eta = 0.0;
  double tol = 0.0;
  double stall_tol = 0.0;
  Timings timings;
  std::optional<Verification> verification;  // nullopt: not asked (Options::verify)
  // With the pivot check (eta > 0): the mode checks made and how many needed the exact ||Lambda||_2
  // (the rest were decided by its bounds, pivot_norm_bounds.hpp); nullopt without the check.
  std::optional<PivotCheckCount> pivot_checks;
  // Backend cuda: the most device memory the run's own buffers held at once, the device
  // verification included (runtime/cuda/device_memory_meter.hpp); nullopt on the CPU.
  std::optional<std::size_t> device_memory_peak_bytes;

  int sweeps() const { return static_cast<int>(history.size()) - 1; }
  bool converged() const { return stop_reason == StopReason::tolerance; }
};

}  // namespace tensordiag::runtime
