#pragma once
// The public entry point: T = C x_1 M_1 x_2 M_2 ... x_D M_D with orthogonal M_n and C as diagonal
// as the rule makes it (DESIGN.md sections 1 and 2).
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runtime/tensor.hpp"

namespace tensordiag::runtime {

enum class Backend { automatic, cpu, cuda };
enum class StopReason { max_sweeps, tolerance, stalled, callback };
// How the GPU takes ||Lambda||_2 for the pivot check: automatic = on the device (one block,
// Lanczos) where N <= 1024, else cuSOLVER; the CPU engine always uses an exact eigensolver.
enum class PivotNorm { automatic, device, cusolver };

std::string_view to_string(Backend backend);
std::string_view to_string(StopReason reason);
Backend parse_backend(std::string_view name);  // "auto" | "cpu" | "cuda"
std::string_view to_string(PivotNorm norm);
PivotNorm parse_pivot_norm(std::string_view name);  // "auto" | "device" | "cusolver"

// One line of the convergence history. Sweep 0 describes the input.
struct SweepRecord {
  int sweep = 0;
  double off_rel = 1.0;      // off(C) / off(T), off computed as a direct sum of squares
  double diag_norm2 = 0.0;   // ||diag C||^2 = sum_i C[i, .., i]^2
  double trace = 0.0;        // sum_i C[i, .., i], the objective of max_trace
  double seconds = 0.0;      // wall time of this sweep alone
};

struct Options {
  Backend backend = Backend::automatic;
  std::string rule = "max_diag";  // a built-in rule: max_diag | max_trace
  double eta = 0.0;               // pivot check threshold; 0 disables the check
  PivotNorm pivot_norm = PivotNorm::automatic;
  int max_sweeps = 100;
  // Stop when off_rel <= tol. Unset: 1e-12 for float64, 1e-5 for float32.
  std::optional<double> tol;
  // Stop when a sweep raises the rule's objective (||diag C||^2; the trace for max_trace) by less
  // than stall_tol relative. Unset: 1e-13 (float64),
  // 1e-6 (float32): below that the gain is rounding noise.
  std::optional<double> stall_tol;
  int threads = 0;  // CPU threads; 0 = all hardware threads
  // Called after every sweep (sweep >= 1); returning true stops the run (StopReason::callback).
  std::function<bool(const SweepRecord&)> on_sweep;
};

struct Timings {
  double setup_seconds = 0.0;    // allocation, copies, schedule
  double sweeps_seconds = 0.0;   // all sweeps including convergence figures
  double total_seconds = 0.0;    // call to return
  double compile_seconds = 0.0;  // cuda: generating, compiling (or fetching from the cache) and loading kernels
};

template <class T>
struct Result {
  HostTensor<T> core;
  std::vector<Matrix<T>> factors;  // M_1 .. M_D, N x N, orthogonal
  std::vector<SweepRecord> history;
  StopReason stop_reason = StopReason::max_sweeps;
  Backend backend = Backend::cpu;  // the backend that ran
  std::string device;              // the CPU's model and threads, or the GPU's name
  std::vector<std::string> notes;  // for the caller to show: e.g. auto fell back to the CPU
  std::string rule;
  double eta = 0.0;
  double tol = 0.0;
  double stall_tol = 0.0;
  Timings timings;

  int sweeps() const { return static_cast<int>(history.size()) - 1; }
  bool converged() const { return stop_reason == StopReason::tolerance; }
};

// Throws user_error for invalid options or input (order < 3, non-finite values, unknown rule, ...).
template <class T>
Result<T> diagonalize(const HostTensor<T>& tensor, const Options& options = {});

// Many tensors of one shape and layout. On the GPU, without the pivot check and a callback, tensors
// that fit one block's shared memory run together in one launch, one block each; otherwise one
// after the other.
template <class T>
std::vector<Result<T>> diagonalize_batch(const std::vector<HostTensor<T>>& tensors, const Options& options = {});

extern template Result<float> diagonalize(const HostTensor<float>&, const Options&);
extern template Result<double> diagonalize(const HostTensor<double>&, const Options&);
extern template std::vector<Result<float>> diagonalize_batch(const std::vector<HostTensor<float>>&, const Options&);
extern template std::vector<Result<double>> diagonalize_batch(const std::vector<HostTensor<double>>&, const Options&);

}  // namespace tensordiag::runtime
