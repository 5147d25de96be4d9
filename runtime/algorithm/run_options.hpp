#pragma once
// What a caller asks of a run (DESIGN.md section 5): the backend, the rule, the pivot check, the
// stop criteria, the threads, a per-sweep callback, a cancel check and the verification of the
// result. Shared by every engine and front end.
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/algorithm/cancellation.hpp"
#include "runtime/algorithm/run_result.hpp"

namespace tensordiag::runtime {

// How the GPU takes ||Lambda||_2 for the pivot check: automatic = on the device (one block,
// Lanczos) where N <= 1024, else cuSOLVER; the CPU engine always uses an exact eigensolver.
enum class PivotNorm { automatic, device, cusolver };

// The order of the pairs in a sweep (DESIGN.md section 3): round_robin, the circle method, one
// pivot group a pass; xor, the XOR subspace schedule, several groups a pass (N a power of two);
// automatic, the one the engine measured faster for the shape (Result::schedule says which ran).
enum class SweepSchedule { automatic, xor_subspaces, round_robin };

// Where the factors start (issue 11 item 4): identity, or hosvd, the left singular vectors of the
// mode unfoldings (hosvd_start.hpp), the engine then running on T x_1 Q_1^T ... x_D Q_D^T.
enum class Init { identity, hosvd };

Backend parse_backend(std::string_view name);  // "auto" | "cpu" | "cuda"
std::string_view to_string(Init init);
Init parse_init(std::string_view name);  // "identity" | "hosvd" (or "svd", TensorLy's name)
std::string_view to_string(PivotNorm norm);
PivotNorm parse_pivot_norm(std::string_view name);  // "auto" | "device" | "cusolver"
std::string_view to_string(SweepSchedule schedule);
SweepSchedule parse_schedule(std::string_view name);  // "auto" | "xor" | "round-robin"

// More CPU threads than this is a typo, not a machine: OpenMP would try to start them all.
constexpr int max_threads = 1024;

struct Options {
  Backend backend = Backend::automatic;
  // symmetric: T is symmetric under every index permutation (checked; order 2 allowed) and is
  // written T = C x_1 Q ... x_D Q with one Q (DESIGN.md section 7); max_diag and eta = 0 only,
  // on the CPU engine.
  Structure structure = Structure::general;
  std::string rule = "max_diag";  // a built-in rule: max_diag | max_trace
  double eta = 0.0;               // pivot check threshold; 0 disables the check
  PivotNorm pivot_norm = PivotNorm::automatic;
  SweepSchedule schedule = SweepSchedule::automatic;
  Init init = Init::identity;
  int max_sweeps = 100;
  // Stop when off_rel <= tol. Unset: 1e-12 for float64, 1e-5 for float32.
  // 0 never stops by tolerance (only by stall, max_sweeps or the callback).
  std::optional<double> tol;
  // Stop when a sweep raises the rule's objective (||diag C||^2; the trace for max_trace) by less
  // than stall_tol relative. Unset: 1e-13 (float64), 1e-6 (float32): below that the gain is
  // rounding noise.
  std::optional<double> stall_tol;
  int threads = 0;  // CPU threads, 0..max_threads; 0 = all hardware threads
  // Called after every sweep (sweep >= 1); returning true stops the run (StopReason::callback).
  std::function<bool(const SweepRecord&)> on_sweep;
  // Asked before every sweep (and between the CPU engine's group steps); true ends the run by
  // throwing run_cancelled (cancellation.hpp). The one-block GPU path, a whole batch in one
  // launch of a few milliseconds, is asked only before it starts.
  CancelCheck cancelled;
  // Check the result against the tensor at the end of the run (Result::verification): it costs
  // about one sweep, which the library does not spend unless asked.
  bool verify = false;
};

}  // namespace tensordiag::runtime
