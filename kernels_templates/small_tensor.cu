// small_tensor: the whole run of sweeps (DESIGN.md sections 2-3) for a batch of small tensors in
// one launch: one thread block per tensor, the tensor and its factors in shared memory, no host
// round trip. Per sweep, per group of the schedule, as the CPU engine (runtime/engines/cpu_engine.hpp):
// shared_group_step (the pairs' micro-iterations, then every mode's rotations and the factors').
// After each sweep the block computes off(C)^2 and ||diag C||^2 in double and applies the stop
// criteria of runtime/algorithm/stop_criteria.hpp (with structure skew the skew core's figures:
// the squares off the blocks, and the N / D block entries). There is no pivot check: use it with
// eta = 0 only.
//
// Arguments:
//   tensors      batch x N^D entries: in, the tensors; out, their cores C
//   factors      out: batch x D matrices N x N row-major, M_n[i][j] = factors[((b * D + n) * N + i) * N + j]
//   schedule     the GROUPS groups of a sweep, each flattened as `pairs` (runtime::round_robin_schedule);
//                with structure skew (TENSORDIAG_SKEW) the group count G <= GROUPS first, then G live
//                pair counts, then the G groups (runtime::skew_schedule, padded to PAIRS pairs)
//   max_sweeps, tol, stall_tol, stall_on_trace   the stop criteria (runtime::StopCriteria): the
//                stall test watches the trace when stall_on_trace != 0, else ||diag C||^2
//   history      out: batch x (max_sweeps + 1) rows of (off_rel, ||diag C||^2, trace): row 0 the
//                input, row s after sweep s, rows up to sweeps[b] written
//   sweeps       out: the sweeps run, per tensor
//   stop_reason  out: per tensor, in runtime::StopReason's order: 0 max_sweeps, 1 tolerance, 2 stalled
// Launch: grid = batch size, block = THREADS; block b runs tensor b.

inline constexpr int WARPS = ${warps};
inline constexpr int THREADS = 32 * WARPS;
inline constexpr int GROUPS = ${groups};  // groups a sweep (at most, with structure skew)
// A sweep's groups by pipelined_group_steps (pipelined_group_steps.cuh), where the plan found room
// for the second tensor buffer and rotation table (structure general only).
#if defined(TENSORDIAG_SKEW) || defined(TENSORDIAG_SYMMETRIC)
inline constexpr bool PIPELINED = false;
#else
inline constexpr bool PIPELINED = ${pipelined} && group_steps_pipeline<THREADS>();
#endif

inline constexpr int STOP_MAX_SWEEPS = 0;
inline constexpr int STOP_TOLERANCE = 1;
inline constexpr int STOP_STALLED = 2;
inline constexpr int RUNNING = -1;

// The real part of x in double.
__device__ __forceinline__ double real_part(double x) { return x; }
template <class R>
__device__ __forceinline__ double real_part(tensordiag::dsl::Complex<R> x) { return x.re; }

// A record's figures in double, the same in every thread: off(C)^2 and ||diag C||^2 summed by the
// block, the trace (its real part) from the N diagonal entries each thread reads; with structure
// skew the skew core's: the squares off the blocks, and the N / D block entries' squares and sum.
struct Figures {
  double off2, diag2, trace;
};

__device__ inline Figures figures_now(const Scalar* core) {
#ifdef TENSORDIAG_SKEW
  const double2 sums = block_sum(skew_figures_of(core, threadIdx.x, THREADS));
  const double2 blocks = block_entries_figures(core);
  return {sums.x, blocks.x, blocks.y};
#else
  const double2 sums = block_sum(figures_of(core, threadIdx.x, THREADS));
  double trace = 0.0;
  for (int i = 0; i < N; ++i) trace += real_part(core[i * DIAGONAL_STRIDE]);
  return {sums.x, sums.y, trace};
#endif
}

extern "C" __global__ void __launch_bounds__(THREADS)
small_tensor(${small_tensor_parameters}) {
  __shared__ Scalar buffers[PIPELINED ? 2 : 1][ENTRIES];  // the core, and pipelined the buffer it is rotated into
  __shared__ Scalar factor[D][N * N];
  __shared__ Rotation tables[PIPELINED ? 2 : 1][D][PAIRS];  // tables[.][n][k] = (c, s) of pair k in logical mode n
  __shared__ int groups[GROUPS][2 * PAIRS];  // the schedule, read once: no global load per group
  __shared__ int position[PIPELINED ? GROUPS : 1][N];  // pipelined: group_positions of the groups
  Scalar* core = buffers[0];
#ifdef TENSORDIAG_SKEW
  __shared__ int live[GROUPS];  // each group's live pairs (they come first)
  const int group_count = schedule[0];
  const int* pairs = schedule + 1 + group_count;
#else
  const int group_count = GROUPS;
  const int* pairs = schedule;
#endif
  __shared__ Scalar subtensors[WARPS][SUBTENSOR];

  const long long b = blockIdx.x;
  for (int i = threadIdx.x; i < ENTRIES; i += THREADS) core[i] = tensors[b * ENTRIES + i];
  for (int i = threadIdx.x; i < group_count * 2 * PAIRS; i += THREADS) groups[i / (2 * PAIRS)][i % (2 * PAIRS)] = pairs[i];
#ifdef TENSORDIAG_SKEW
  for (int i = threadIdx.x; i < group_count; i += THREADS) live[i] = schedule[1 + i];
#endif
  for (int i = threadIdx.x; i < D * N * N; i += THREADS) {
    const int entry = i % (N * N);
    factor[i / (N * N)][entry] = entry / N == entry % N ? Scalar(1) : Scalar(0);  // M_n = I
  }
  __syncthreads();
  if constexpr (PIPELINED) {
    group_positions(groups, group_count, position);
    __syncthreads();
  }

  // Sweep 0 describes the input. Every thread holds the same figures, so all take the same branches.
  const Figures input = figures_now(core);
  const double off_input = sqrt(input.off2);
  double* rows = history + b * (max_sweeps + 1) * 3;
  if (threadIdx.x == 0) {
    rows[0] = off_input > 0 ? sqrt(off_input * off_input) / off_input : 0.0;
    rows[1] = input.diag2;
    rows[2] = input.trace;
  }
  int sweep = 0;
  int reason = off_input == 0 ? STOP_TOLERANCE : RUNNING;  // already diagonal
  double watched_before = stall_on_trace ? input.trace : input.diag2;
  double off_rel_before = 1.0;
  while (reason == RUNNING) {
    ++sweep;
    if constexpr (PIPELINED) {
      core = pipelined_group_steps<WARPS>(core, core == buffers[0] ? buffers[PIPELINED ? 1 : 0] : buffers[0], factor,
                                          tables, groups, position, group_count);
    } else {
      for (int r = 0; r < group_count; ++r) {
#ifdef TENSORDIAG_SKEW
        shared_group_step<WARPS>(core, factor, tables[0], groups[r], subtensors, live[r]);
#else
        shared_group_step<WARPS>(core, factor, tables[0], groups[r], subtensors);
#endif
      }
    }
    const Figures now = figures_now(core);
    const double off_rel = off_input > 0 ? sqrt(now.off2) / off_input : 0.0;
    if (threadIdx.x == 0) {
      rows[3 * sweep] = off_rel;
      rows[3 * sweep + 1] = now.diag2;
      rows[3 * sweep + 2] = now.trace;
    }
    const double watched = stall_on_trace ? now.trace : now.diag2;
    const bool no_gain =
        watched_before > 0 ? (watched - watched_before) / watched_before < stall_tol : watched <= watched_before;
    const bool stalled = no_gain && !(off_rel <= 0.5 * off_rel_before);  // runtime::stop_reason_after
    if (off_rel <= tol) {
      reason = STOP_TOLERANCE;
    } else if (stalled) {
      reason = STOP_STALLED;
    } else if (sweep >= max_sweeps) {
      reason = STOP_MAX_SWEEPS;
    }
    watched_before = watched;
    off_rel_before = off_rel;
  }

  for (int i = threadIdx.x; i < ENTRIES; i += THREADS) tensors[b * ENTRIES + i] = core[i];
  for (int i = threadIdx.x; i < D * N * N; i += THREADS) factors[b * D * N * N + i] = factor[i / (N * N)][i % (N * N)];
  if (threadIdx.x == 0) {
    sweeps[b] = sweep;
    stop_reason[b] = reason;
  }
}
