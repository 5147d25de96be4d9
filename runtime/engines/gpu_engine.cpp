#include "runtime/engines/gpu_engine.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "codegen/kernel_plan.hpp"
#include "dsl/givens.hpp"
#include "runtime/algorithm/diagonal_phases.hpp"
#include "runtime/algorithm/pivot_schedule.hpp"
#include "runtime/algorithm/skew_blocks.hpp"
#include "runtime/algorithm/skew_schedule.hpp"
#include "runtime/algorithm/skew_signs.hpp"
#include "runtime/algorithm/xor_schedule.hpp"
#include "runtime/algorithm/sweep_loop.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/core/scalar.hpp"
#include "runtime/core/stopwatch.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/cuda/cuda_stream.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/engines/device_memory.hpp"
#include "runtime/engines/gpu_host_symmetric_steps.hpp"
#include "runtime/engines/gpu_hosvd_start.hpp"
#include "runtime/engines/gpu_kernels.hpp"
#include "runtime/engines/gpu_subspace_passes.hpp"
#include "runtime/engines/tuning_environment.hpp"
#include "runtime/engines/gpu_verification.hpp"
#include "runtime/engines/lambda_norm_cusolver.hpp"

namespace tensordiag::runtime {

namespace {

// How the pivot check takes ||Lambda||_2: not at all (no check), on the device (lambda_norm, one
// block, N <= 1024; complex N <= 512: its Lambda comes as the real 2N x 2N embedding), or with
// cuSOLVER (any N; its calls cannot be captured in a graph).
enum class NormPath { unchecked, device, cusolver };

NormPath choose_norm_path(bool checked, bool has_lambda_norm, PivotNorm asked) {
  if (!checked) return NormPath::unchecked;
  if (asked == PivotNorm::device && !has_lambda_norm)
    throw user_error("the on-device pivot norm takes N <= 1024 (complex tensors N <= 512); use --pivot-norm "
                     "cusolver or auto");
  return has_lambda_norm && asked != PivotNorm::cusolver ? NormPath::device : NormPath::cusolver;
}

// The general engine's kernels, with the pivot check's when it is on, or with the symmetric or skew
// angles for structure symmetric or skew (which take no pivot check: run_plan.hpp).
KernelSet kernel_set(const EngineRun& run) {
  if (run.settings.structure == Structure::symmetric) return KernelSet::general_symmetric;
  if (run.settings.structure == Structure::skew) return KernelSet::general_skew;
  return run.settings.eta > 0 ? KernelSet::general_with_pivot_check : KernelSet::general;
}

// The sweep's order (DESIGN.md section 3): group passes (the round robin's groups, or the XOR
// schedule's one a pass), or the XOR schedule's subspace passes when their cells fit a block.
struct GpuSchedule {
  SweepSchedule ran = SweepSchedule::round_robin;  // or xor_subspaces
  PivotSchedule groups;      // the group passes; empty with subspaces
  std::vector<int> live;     // structure skew: each group's live pairs, which come first (the rest pad it)
  std::vector<SubspacePass> subspaces;
  std::optional<codegen::SubspaceApplyPlan> subspace_plan;

  int passes() const { return static_cast<int>(groups.size() + subspaces.size()); }
};

// auto takes the subspace passes where they measured faster than the round robin on the H100
// (10 sweeps; bench/results/one_block_registers_h100_2026-11-26.md, and for order 3
// bench/results/xor_h100_2026-11-23.md):
// - order 3, N a power of two >= 16, cells of 8 (float32 N = 128: 5.9 ms against 13.7);
// - orders 4 to 7 with cells of 4 where N is a power of 4 (16, 64, ..: a pass does three of the
//   round robin's groups) or the tensor has 2^24 entries or more. Measured in float32, float64,
//   complex64, complex128 and float32 structure symmetric at D x N = 4 x 16, 4 x 64, 5 x 16, 5 x 32,
//   6 x 16, where it won in every dtype where its tile fits (0.40-0.92 of the round robin's time;
//   float32 D = 4, N = 64 19.0 ms against 35.9); at N = 8 and 32 with fewer entries it won or lost by
//   up to a third depending on the dtype (D = 4, N = 32: 0.99-1.33), so those keep the round robin,
//   except at order 4: after the XOR passes' speed-ups of 2026-11-28 an H200 measured D = 4, N = 32
//   at 0.72-0.91 of the round robin's time in all four dtypes and D = 4, N = 8 at 0.80-0.89 (float64
//   and the complex dtypes; float32 runs there on the one-block engine), but D = 5, N = 8 at
//   0.83 in float32 and 1.06-1.11 in the others (bench/results/xor_rule_h200_2026-11-28.md), so
//   order 4 (structure general) takes them at every N a power of two from 8.
//   Real dtypes keep the tile within 100 KB (float64 D = 6, N = 16, a 128 KB tile: 1.22 of the
//   round robin), complex ones take the opt-in shared memory (complex64 D = 6, N = 16: 0.79,
//   complex128 D = 5, N = 32: 0.52, both 128 KB). Structure symmetric, whose angles cost more a
//   group than the general rule's, takes them at orders 4 and 5 for every N a power of two from 8, in
//   float32 and float64: an H200 measured 0.47-0.85 of the round robin's time in float32 and
//   0.45-0.95 in float64 at D x N = 4 x 8, 4 x 16, 4 x 32, 4 x 64, 5 x 8, 5 x 16 and 5 x 32; at
//   orders 6 and 7 the rule above (D = 6, N = 16: 0.88 and 0.81; D = 6, N = 8: 1.39 and 1.67;
//   D = 7, N = 8: 2.68 and 1.06; bench/results/symmetric_schedules_h200_2026-11-28.md). A complex
//   symmetric tensor from order 4 has no subspace passes (its steps are the host's).
// They need N a power of two, cells of at least 4 a mode within a block's shared memory, and no
// pivot check (its Lambda needs the whole tensor between groups). An explicit xor takes the
// subspace passes wherever they fit (cells of 8, else 4, within 100 KB, or
// TENSORDIAG_SUBSPACE_BITS), else the XOR groups one a pass. Structure symmetric's subspace angles
// are the symmetric variant (one rotation a pair in every mode;
// bench/results/symmetric_fourier_h100_2026-11-25.md); complex tensors take the complex kernels.
bool auto_takes_xor(const codegen::KernelSpec& base, bool symmetric) {
  if (base.order == 3) return base.size >= 16;
  if (base.order > 7 || (symmetric && codegen::is_complex(base.dtype))) return false;
  if (base.order == 4 || (symmetric && base.order == 5)) return base.size >= 8;
  const bool power_of_four = base.size >= 16 && (base.size & (base.size - 1)) == 0 && (base.size & 0x55555555) != 0;
  return power_of_four || std::pow(static_cast<double>(base.size), base.order) >= static_cast<double>(1 << 24);
}

// The cells auto takes: 8 a mode at order 3, 4 above (auto_takes_xor).
int auto_cell_bits(const codegen::KernelSpec& base) { return base.order == 3 ? 3 : 2; }

GpuSchedule choose_gpu_schedule(const codegen::KernelSpec& base, const RunSettings& settings) {
  const int size = base.size;
  GpuSchedule schedule;
  // Structure skew: the CPU engine's groups (skew_schedule.hpp; check_options refuses xor), each
  // padded to the N / 2 pairs of a group pass with identity rotations.
  if (settings.structure == Structure::skew) {
    PaddedSkewSchedule padded = padded_skew_schedule(base.order, size);
    schedule.groups = std::move(padded.groups);
    schedule.live = std::move(padded.live);
    return schedule;
  }
  const bool symmetric = settings.structure == Structure::symmetric;
  const bool xor_asked = settings.schedule == SweepSchedule::xor_subspaces;
  // A matrix (structure symmetric at order 2) has no subspace passes, nor a complex symmetric tensor
  // from order 4 (its step is the host's, between groups): xor runs their XOR groups one a pass.
  codegen::KernelSpec angles = base;
  angles.kind = codegen::KernelKind::symmetric_angles;
  const bool has_subspace_passes = base.order >= 3 && !(symmetric && codegen::symmetric_step_on_host(angles));
  if ((xor_asked || (settings.schedule == SweepSchedule::automatic && auto_takes_xor(base, symmetric))) &&
      has_xor_schedule(size) && settings.eta == 0 && has_subspace_passes) {
    codegen::KernelSpec apply = base;
    apply.kind = codegen::KernelKind::subspace_apply;
    apply.tuning.opt_in_shared_bytes = current_device_opt_in_shared_bytes();
    apply.symmetric = symmetric;
    // Under auto: auto_cell_bits's cells or no subspace passes, with a tile up to the opt-in shared
    // memory at order 3 (an explicit cell size lifts the 100 KB). On the H100, 10 sweeps at D = 3:
    // cells of 8 won where their tile is over 100 KB (float64 N = 256 177 ms against 268 for the
    // round robin, complex64 N = 256 212 against 283, complex128 N = 128 21.9 against 32.3) and
    // cells of 4 lost (278, 336 and 63; bench/results/complex_gpu_h100_2026-11-25.md). float32 up to
    // N = 256 has cells of 8 within 100 KB either way. Above order 3 the tile of a real dtype stays
    // within 100 KB (auto_takes_xor).
    // apply.tuning.subspace_bits: TENSORDIAG_SUBSPACE_BITS's (kernel_spec_for), 0 when unset.
    const bool auto_cells = !xor_asked && apply.tuning.subspace_bits == 0;
    if (auto_cells) apply.tuning.subspace_bits = auto_cell_bits(base);
    if (const codegen::PlanAttempt attempt = codegen::try_plan(apply); attempt.plan) {
      const auto plan = std::get<codegen::SubspaceApplyPlan>(attempt.plan->kind_plan);
      const bool within_auto_budget = !auto_cells || base.order == 3 || codegen::is_complex(base.dtype) ||
                                      plan.dynamic_shared_bytes <= apply.tuning.subspace_shared_bytes;
      if (within_auto_budget && codegen::try_plan(subspace_angles_spec(base, plan.cell_bits, symmetric)).plan) {
        schedule.ran = SweepSchedule::xor_subspaces;
        schedule.subspaces = xor_schedule(size, plan.cell_bits);
        schedule.subspace_plan = plan;
        return schedule;
      }
    }
  }
  if (xor_asked) {
    // Structure symmetric in the CPU symmetric engines' order (cpu_group_schedule.hpp), so that both
    // backends run the same rotations.
    schedule.ran = SweepSchedule::xor_subspaces;
    schedule.groups = xor_groups_in_pass_order(size, symmetric ? 3 : 1);
    return schedule;
  }
  schedule.groups = round_robin_schedule(size);
  return schedule;
}

// Every group of the schedule, flattened to (p, q) ints in group order.
std::vector<int> flat_pairs(const PivotSchedule& schedule) {
  std::vector<int> flat;
  for (const auto& group : schedule)
    for (const auto [p, q] : group) flat.insert(flat.end(), {p, q});
  return flat;
}

// Everything a run keeps on the device, allocated once, with the inputs uploaded: the tensor, the
// factors (identities), the schedule, and the pivot check's buffers when it is on.
template <class T>
struct DeviceState {
  DeviceState(const TensorView<T>& input, const PivotSchedule& schedule, const GpuKernels<T>& kernels, NormPath norm,
              cudaStream_t stream)
      : order(input.order()),
        size(input.size()),
        groups(schedule.size()),
        pairs_per_group(static_cast<std::size_t>(size / 2)),
        tensor(input.count()),
        factors(static_cast<std::size_t>(order) * size * size),
        pairs(groups * 2 * pairs_per_group),
        rotations(groups * static_cast<std::size_t>(order) * pairs_per_group),
        partials(static_cast<std::size_t>(
            std::max(kernels.off_norm_plan.partial_doubles, kernels.group_pass_plan.partial_doubles))),
        figures(2),
        lambda(norm != NormPath::unchecked ? static_cast<std::size_t>(size) * size * (is_complex_v<T> ? 4 : 1) : 0),
        lines(lambda.count()),
        lanczos_basis(norm == NormPath::device ? static_cast<std::size_t>(kernels.lambda_norm_plan->basis_doubles) : 0),
        lambda_norm(norm == NormPath::device ? 1 : 0),
        exact_norms(norm == NormPath::device ? 1 : 0),
        split_partials(kernels.split_plan ? static_cast<std::size_t>(kernels.split_plan->partial_doubles) : 0) {
    tensor.upload(input.data(), input.count(), stream);
    std::vector<T> identities;
    for (int n = 0; n < order; ++n) {
      const auto m = Matrix<T>::identity(size);
      identities.insert(identities.end(), m.data.begin(), m.data.end());
    }
    factors.upload(identities, stream);
    if (exact_norms.count() > 0) check_cuda(cudaMemsetAsync(exact_norms.data(), 0, sizeof(int), stream), "cudaMemsetAsync");
    pairs.upload(flat_pairs(schedule), stream);
  }

  const int* group_pairs(std::size_t g) const { return pairs.data() + g * 2 * pairs_per_group; }
  dsl::Givens<T>* group_rotations(std::size_t g) {
    return rotations.data() + g * static_cast<std::size_t>(order) * pairs_per_group;
  }

  int order, size;
  std::size_t groups, pairs_per_group;
  DeviceBuffer<T> tensor;
  DeviceBuffer<T> factors;                 // D row-major N x N matrices
  DeviceBuffer<int> pairs;                 // every group of the schedule, flattened
  DeviceBuffer<dsl::Givens<T>> rotations;  // per group: (c, s) of every mode and pair
  DeviceBuffer<double> partials;           // the figures' first stage: off_norm_partial or the last group_pass
  DeviceBuffer<double> figures;            // (off^2, ||diag||^2)
  DeviceBuffer<double> lambda;             // pivot check: Lambda of one mode (complex: its 2N x 2N embedding)
  DeviceBuffer<double> lines;              // pivot check: the group's pivot entries of one mode (as lambda)
  DeviceBuffer<double> lanczos_basis;      // device norm: lambda_norm's Lanczos vectors
  DeviceBuffer<double> lambda_norm;        // device norm: ||Lambda||_2
  DeviceBuffer<int> exact_norms;           // device norm: the checks the bounds left open
  DeviceBuffer<double> split_partials;     // split angles: the contraction's partial sums
};

// The entries whose squares and sum are a record's ||diag C||^2 and trace: the diagonal (N entries,
// DIAGONAL_STRIDE apart), or with structure skew the block entries C[B_k] (N / D of them, index
// kD + n in mode n: from sum_n n stride_n, D DIAGONAL_STRIDE apart), as core_figures takes them.
struct DiagonalEntries {
  std::size_t first = 0, pitch = 0, count = 0;  // in entries
};

template <class T>
DiagonalEntries diagonal_entries(const TensorView<T>& tensor, Structure structure) {
  const auto diagonal_stride = static_cast<std::size_t>(tensor.diagonal_stride());
  if (structure != Structure::skew) return {0, diagonal_stride, static_cast<std::size_t>(tensor.size())};
  const std::vector<std::ptrdiff_t> strides = strides_of(tensor.order(), tensor.size(), tensor.layout());
  return {static_cast<std::size_t>(skew_block_offset(strides, 0)), static_cast<std::size_t>(tensor.order()) * diagonal_stride,
          static_cast<std::size_t>(skew_block_count(tensor.order(), tensor.size()))};
}

// The convergence figures the host reads once per sweep: off(C)^2 reduced from `count` partial sums
// (off_norm_partial's or skew_figures_partial's, or the sweep's last group_pass's after a sweep),
// and the diagonal itself (DiagonalEntries) by a strided copy, from which ||diag C||^2 and the trace
// are summed on the host.
template <class T>
class SweepFigures {
public:
  SweepFigures(DeviceState<T>& state, const GpuKernels<T>& kernels, DiagonalEntries diagonal)
      : state_(state), kernels_(kernels), figures_(2), diagonal_(diagonal.count), diagonal_first_(diagonal.first),
        diagonal_pitch_(diagonal.pitch * sizeof(T)) {}

  // The figures of the tensor as it stands, by one more read of it: skew_figures_partial's for
  // structure skew, else off_norm_partial's.
  void enqueue_from_tensor(cudaStream_t stream) {
    if (kernels_.skew_plan) {
      kernels_.skew_figures_partial(stream, state_.tensor.data(), state_.partials.data());
      enqueue(stream, kernels_.skew_plan->partial_blocks);
    } else {
      kernels_.off_norm_partial(stream, state_.tensor.data(), state_.partials.data(), nullptr);
      enqueue(stream, kernels_.off_norm_plan.partial_blocks);
    }
  }

  void enqueue(cudaStream_t stream, long long partial_count) {
    kernels_.off_norm_final(stream, state_.partials.data(), static_cast<int>(partial_count), state_.figures.data());
    check_cuda(cudaMemcpyAsync(figures_.data(), state_.figures.data(), 2 * sizeof(double), cudaMemcpyDeviceToHost,
                               stream),
               "cudaMemcpyAsync");
    if (diagonal_.count() > 0)
      check_cuda(cudaMemcpy2DAsync(diagonal_.data(), sizeof(T), state_.tensor.data() + diagonal_first_, diagonal_pitch_,
                                   sizeof(T), diagonal_.count(), cudaMemcpyDeviceToHost, stream),
                 "cudaMemcpy2DAsync (diagonal)");
  }

  // off(C) of what enqueue() read, once the stream has reached it.
  double off() { return std::sqrt(figures_[0]); }

  SweepRecord record(int sweep, double off_input, double seconds) {
    double diag2 = 0, trace = 0;
    for (std::size_t i = 0; i < diagonal_.count(); ++i) {
      const wide_t<T> x = static_cast<wide_t<T>>(diagonal_[i]);
      diag2 += abs2(x);
      trace += real_part(x);
    }
    return SweepRecord{sweep, off_input > 0 ? off() / off_input : 0.0, diag2, trace, seconds};
  }

private:
  DeviceState<T>& state_;
  const GpuKernels<T>& kernels_;
  PinnedBuffer<double> figures_;
  PinnedBuffer<T> diagonal_;
  std::size_t diagonal_first_;
  std::size_t diagonal_pitch_;
};

// The work of one sweep, enqueued on a stream (captured once into a graph where it can be): per
// group the angles (per mode with Lambda and its norm when checked; one rotation a pair for every
// mode with structure symmetric), then the group pass, whose last instance of the sweep also sums
// the figures. pivot_angles or symmetric_angles (checked: each mode's pivot_check_gather and
// lambda_norm) and group_pass are launched to overlap the kernel before them where the device
// allows it (compute capability 9.0): the angles wait for the previous kernel's end and then let
// the next begin; the pass loads its first tile meanwhile and waits for the angles before it reads
// the rotations (kernels_templates/group_pass.cu; measured: bench/results/overlapping_launches_h200_
// 2026-11-28.md, pivot_check_launches_h200_2026-11-29.md). A symmetric run keeps D factors as the
// general one does: the same rotations reach each, so they stay equal, bit for bit (D N^2 work a
// group where N^D is the pass's: one factor and a copy at the end would save (D - 1) / N^(D-2) of
// the traffic).
template <class T>
class GpuSweep {
public:
  GpuSweep(DeviceState<T>& state, const GpuKernels<T>& kernels, SweepFigures<T>& figures, NormPath norm, double eta,
           GpuSubspacePasses<T>* subspaces, std::vector<int> live, int threads)
      : state_(state), kernels_(kernels), figures_(figures), norm_(norm), eta_(eta), subspaces_(subspaces),
        live_(std::move(live)), overlap_(current_device_overlaps_launches()) {
    // A complex Lambda is its real 2N x 2N embedding: the same singular values.
    if (norm_ == NormPath::cusolver) cusolver_norm_.emplace(is_complex_v<T> ? 2 * state.size : state.size);
    if (kernels.host_step_plan) host_steps_.emplace(state.order, state.size, *kernels.host_step_plan, threads);
  }

  // cuSOLVER's calls, and the host's steps (a synchronization a group), cannot be captured.
  bool capturable() const { return norm_ != NormPath::cusolver && !host_steps_; }

  void enqueue(cudaStream_t stream) {
    if (subspaces_) {
      subspaces_->enqueue(stream, kernels_, state_.tensor.data(), state_.factors.data());
      // The passes sum no figures: one more read of the tensor.
      figures_.enqueue_from_tensor(stream);
      return;
    }
    const Angles angles = group_angles();
    // The angle kernels that wait for the pass before them and then let their own begin; checked,
    // each mode's gather and lambda_norm too (not with cuSOLVER's norm).
    const bool overlapping = overlap_ && (angles == Angles::symmetric || angles == Angles::plain ||
                                          (angles == Angles::checked && norm_ == NormPath::device));
    const auto launch = [&](const auto& kernel, auto... arguments) {
      if (overlapping) kernel.overlapping(kernel.grid, stream, arguments...);
      else kernel(stream, arguments...);
    };
    for (std::size_t g = 0; g < state_.groups; ++g) {
      const int* pairs = state_.group_pairs(g);
      dsl::Givens<T>* rotations = state_.group_rotations(g);
      switch (angles) {
        case Angles::checked:
          for (int mode = 0; mode < state_.order; ++mode) enqueue_checked_angles(stream, pairs, rotations, mode, launch);
          break;
        case Angles::host_steps: host_steps_->enqueue(stream, kernels_, state_.tensor.data(), pairs, rotations); break;
        case Angles::symmetric: launch(kernels_.symmetric_angles, state_.tensor.data(), pairs, rotations); break;
        case Angles::skew: kernels_.skew_angles(stream, state_.tensor.data(), pairs, rotations, live_[g]); break;
        case Angles::split:
          kernels_.split_angles(stream, state_.tensor.data(), pairs, rotations, state_.split_partials.data(), nullptr);
          break;
        case Angles::plain: launch(kernels_.pivot_angles, state_.tensor.data(), pairs, rotations, nullptr); break;
      }
      if (kernels_.chunk_plan) {
        for (const auto& [first, count] : kernels_.chunk_plan->chunks)
          kernels_.chunk_pass(stream, state_.tensor.data(), pairs, rotations, first, count);
        kernels_.group_factors(stream, pairs, rotations, state_.factors.data());
      } else {
        // The sweep's last pass also sums the convergence figures (the general ones: not a skew core's).
        double* partials = g + 1 < state_.groups || kernels_.skew_plan ? nullptr : state_.partials.data();
        launch(kernels_.group_pass, state_.tensor.data(), pairs, rotations, state_.factors.data(), partials, nullptr);
      }
    }
    if (kernels_.chunk_plan || kernels_.skew_plan) {
      // The chunks sum no figures, and the passes no skew ones: one more read of the tensor.
      figures_.enqueue_from_tensor(stream);
    } else {
      figures_.enqueue(stream, kernels_.group_pass_plan.pass_blocks);
    }
  }

private:
  // Which kernels take a group's angles: per mode with Lambda and its norm (the pivot check); the
  // host (complex symmetric from order 4); symmetric_angles; skew_angles; the split angles (a pivot
  // subtensor past a warp's shared memory); pivot_angles.
  enum class Angles { checked, host_steps, symmetric, skew, split, plain };
  Angles group_angles() const {
    if (norm_ != NormPath::unchecked) return Angles::checked;
    if (host_steps_) return Angles::host_steps;
    if (kernels_.symmetric_angles.function) return Angles::symmetric;
    if (kernels_.skew_plan) return Angles::skew;
    if (kernels_.split_plan) return Angles::split;
    return Angles::plain;
  }

  // Mode `mode`'s angles of a group, each pair rotated only where 2|Lambda_pq| >= eta ||Lambda||_2:
  // the gather's Lambda and pivot entries, then the norm and the rotations in one launch
  // (lambda_norm), or cuSOLVER's norm and checked_angles. `launch` launches a kernel plainly or to
  // overlap the one before it.
  template <class Launch>
  void enqueue_checked_angles(cudaStream_t stream, const int* pairs, dsl::Givens<T>* rotations, int mode,
                              const Launch& launch) {
    double* lambda = state_.lambda.data();
    if (norm_ == NormPath::device) {
      launch(kernels_.pivot_check_gather, state_.tensor.data(), pairs, rotations, mode, lambda, state_.lines.data());
      launch(kernels_.lambda_norm, lambda, state_.lanczos_basis.data(), state_.lambda_norm.data(), pairs, eta_,
             state_.exact_norms.data(), state_.lines.data(), mode, rotations);
    } else {
      kernels_.pivot_check_gather(stream, state_.tensor.data(), pairs, rotations, mode, lambda, state_.lines.data());
      cusolver_norm_->enqueue(stream, lambda);
      kernels_.checked_angles(stream, pairs, state_.lines.data(), lambda, cusolver_norm_->norm(), eta_, mode, rotations);
    }
  }

  DeviceState<T>& state_;
  const GpuKernels<T>& kernels_;
  SweepFigures<T>& figures_;
  NormPath norm_;
  double eta_;
  GpuSubspacePasses<T>* subspaces_;  // null: group passes
  std::vector<int> live_;            // structure skew: the live pairs of each group
  std::optional<LambdaNormCusolver> cusolver_norm_;
  std::optional<GpuHostSymmetricSteps<T>> host_steps_;  // complex symmetric from order 4
  bool overlap_;  // the device runs kernels launched to overlap the one before them
};

// The factors on the host (synchronizes the stream).
template <class T>
std::vector<Matrix<T>> download_factors(DeviceState<T>& state, cudaStream_t stream) {
  const std::vector<T> factors = state.factors.download(stream);
  const std::size_t square = static_cast<std::size_t>(state.size) * state.size;
  std::vector<Matrix<T>> matrices;
  for (int n = 0; n < state.order; ++n) {
    const auto begin = factors.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(n) * square);
    matrices.push_back(Matrix<T>{state.size, std::vector<T>(begin, begin + static_cast<std::ptrdiff_t>(square))});
  }
  return matrices;
}

// D row-major N x N matrices into the device's factors (download_factors's inverse).
template <class T>
void upload_factors(const std::vector<Matrix<T>>& matrices, cudaStream_t stream, DeviceState<T>& state) {
  const std::size_t square = static_cast<std::size_t>(state.size) * state.size;
  for (std::size_t n = 0; n < matrices.size(); ++n)
    state.factors.upload(matrices[n].data.data(), square, stream, n * square);
}

// The core and the factors back to the host.
template <class T>
void download_result(DeviceState<T>& state, Layout layout, cudaStream_t stream, Result<T>& result) {
  result.core = HostTensor<T>(state.order, state.size, layout);
  state.tensor.download(result.core.data(), result.core.count(), stream);
  result.factors = download_factors(state, stream);
}

// The host's core and factors (a complex result after its phases are fixed) back to the device.
template <class T>
void upload_result(const Result<T>& result, cudaStream_t stream, DeviceState<T>& state) {
  state.tensor.upload(result.core.data(), result.core.count(), stream);
  upload_factors(result.factors, stream, state);
}

// The core and the factors handed to the caller where they are, on the device (diagonalize_on_device).
template <class T>
void keep_result(DeviceState<T>& state, Layout layout, int device, cudaStream_t stream, DeviceResult<T>& kept) {
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  kept.order = state.order;
  kept.size = state.size;
  kept.layout = layout;
  kept.device = device;
  const auto core = std::make_shared<DeviceBuffer<T>>(std::move(state.tensor));
  kept.core = std::shared_ptr<T>(core, core->data());
  // The D factors share one allocation, freed with the last of them.
  const auto factors = std::make_shared<DeviceBuffer<T>>(std::move(state.factors));
  const std::size_t square = static_cast<std::size_t>(state.size) * state.size;
  for (int n = 0; n < state.order; ++n)
    kept.factors.push_back(std::shared_ptr<T>(factors, factors->data() + static_cast<std::size_t>(n) * square));
}

// A caller's CUDA array must be device (or managed) memory of the device the engines run on.
void check_device_pointer(const void* data, int device) {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, data) != cudaSuccess) cudaGetLastError();
  if (attributes.type != cudaMemoryTypeDevice && attributes.type != cudaMemoryTypeManaged)
    throw user_error("the tensor's pointer is not CUDA device memory");
  if (attributes.type == cudaMemoryTypeDevice && attributes.device != device)
    throw user_error("the tensor is on CUDA device " + std::to_string(attributes.device) + ", but tensordiag runs on device " +
                     std::to_string(device) + " (the first visible one: CUDA_VISIBLE_DEVICES chooses it); move the "
                     "tensor there first");
}

// The device bytes of a run: the engine's buffers, and the HOSVD start's while it runs.
double run_bytes(int order, int size, std::size_t scalar_bytes, const RunSettings& settings) {
  return device_bytes_needed(order, size, scalar_bytes) +
         (settings.init == Init::hosvd ? gpu_hosvd_start_bytes(order, size, scalar_bytes) : 0.0);
}

// The HOSVD start on the device (gpu_hosvd_start.hpp): the tensor becomes T' = T x_n Q_n^T and the
// factors Q_n, which the group passes turn into Q_n M'_n (they multiply the factors on the right),
// so the run's factors need no composing afterwards. Sweep 0 is recorded again, T' against
// `off_input` = off(T): every off_rel, and the tolerance, keep T's scale (the host start's meaning).
template <class T>
void start_from_hosvd(DeviceState<T>& state, SweepFigures<T>& figures, Layout layout, Structure structure,
                      double off_input, cudaStream_t stream, Result<T>& result) {
  const GpuHosvdStart<T> start = gpu_hosvd_start(state.tensor.data(), state.order, state.size,
                                                 strides_of(state.order, state.size, layout), structure, stream);
  upload_factors(start.bases, stream, state);
  figures.enqueue_from_tensor(stream);
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  result.history.front() = figures.record(0, off_input, 0.0);
  result.hosvd_start = true;
  result.hosvd_on_device = true;
  result.timings.init_seconds = start.seconds;
}

// The general engine on a tensor in host memory (the result downloaded) or, with `kept`, in device
// memory (the result left there, in `kept`).
template <class T>
Result<T> run_general(const TensorView<T>& tensor, const EngineRun& run, DeviceResult<T>* kept) {
  const Stopwatch total;
  const RunSettings& settings = run.settings;
  const auto device = require_cuda_device();
  if (tensor.memory() == Memory::cuda) {
    check_device_pointer(tensor.data(), device.index);
    // The array's producer may still be writing it on a stream of its own (DLPack and the array
    // interface hand no stream over here): wait for the whole device before the copy.
    check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  }
  if (const auto refusal = device_memory_refusal(device, run_bytes(tensor.order(), tensor.size(), sizeof(T), settings)))
    throw user_error(*refusal);
  const codegen::KernelSpec base = kernel_spec_for(tensor, run.rule, codegen::KernelKind::group_pass);
  GpuSchedule schedule = choose_gpu_schedule(base, settings);
  // The subspace passes need none of the group passes' kernels: fewer modules to load.
  GpuKernels<T> kernels(base, device.arch(), schedule.subspace_plan ? KernelSet::subspace : kernel_set(run));
  const NormPath norm = choose_norm_path(settings.eta > 0, kernels.lambda_norm_plan.has_value(), settings.pivot_norm);
  const CudaStream stream;
  std::optional<GpuSubspacePasses<T>> subspaces;
  if (schedule.subspace_plan) {
    kernels.load_subspace(device.arch(), schedule.subspace_plan->cell_bits, settings.structure == Structure::symmetric);
    subspaces.emplace(schedule.subspaces, tensor.size(), tensor.layout(), *kernels.subspace_plan, stream.get());
  }
  DeviceState<T> state(tensor, schedule.groups, kernels, norm, stream.get());
  SweepFigures<T> figures(state, kernels,
                          diagonal_entries(tensor, settings.structure));
  GpuSweep<T> sweep(state, kernels, figures, norm, settings.eta, subspaces ? &*subspaces : nullptr, schedule.live,
                    settings.threads);

  Result<T> result;
  result.schedule = to_string(schedule.ran);
  result.passes_per_sweep = schedule.passes();
  result.backend = Backend::cuda;
  result.device = device.name;
  figures.enqueue_from_tensor(stream.get());
  stream.synchronize();
  const double off_input = figures.off();
  result.history.push_back(figures.record(0, off_input, 0.0));
  // A host input was checked entry by entry (diagonalize.cpp); a device input is checked here, by
  // its sums of squares, which NaN or Inf anywhere makes non-finite.
  if (tensor.memory() == Memory::cuda && !(std::isfinite(off_input) && std::isfinite(result.history[0].diag_norm2)))
    throw user_error("the tensor contains NaN or Inf");
  if (settings.init == Init::hosvd)
    start_from_hosvd(state, figures, tensor.layout(), settings.structure, off_input, stream.get(), result);
  std::optional<CudaGraph> graph;
  if (sweep.capturable()) graph.emplace(stream.get(), [&sweep](cudaStream_t s) { sweep.enqueue(s); });
  result.timings.setup_seconds = total.seconds();

  const Stopwatch sweeps;
  CudaEvent before, after;
  result.stop_reason = run_sweeps(result.history, settings, [&](int n) {
    before.record(stream.get());
    if (graph) graph->launch(stream.get());
    else sweep.enqueue(stream.get());
    after.record(stream.get());
    stream.synchronize();
    return figures.record(n, off_input, after.seconds_since(before));
  });
  result.timings.sweeps_seconds = sweeps.seconds();

  if (!kept) download_result(state, tensor.layout(), stream.get(), result);
  // As on the CPU, total_seconds is the diagonalization alone; the verification has its own time
  // (and its kernel's compile time joins compile_seconds).
  result.timings.total_seconds = total.seconds();
  // A complex result's phases are fixed on the host (diagonal_phases.hpp); where it is verified,
  // the fixed core and factors go back to the device first, so that the verification checks the
  // outputs as they are written.
  if constexpr (is_complex_v<T>) {
    fix_complex_phases(result, settings.structure);
    if (settings.verify) upload_result(result, stream.get(), state);
  }
  if (settings.verify) {
    // The orthogonality is checked on the host: a kept run downloads its (small) factors for it.
    const std::vector<Matrix<T>> kept_factors = kept ? download_factors(state, stream.get()) : std::vector<Matrix<T>>{};
    result.verification = verify_on_device(
        DeviceVerificationInputs<T>{tensor, state.tensor, state.factors, state.partials, state.figures, kept != nullptr},
        kept ? kept_factors : result.factors, kernels, device.arch(), stream.get());
  }
  if (kept) keep_result(state, tensor.layout(), device.index, stream.get(), *kept);
  // After the verification, which the sign flips do not change (a kept run has no structure).
  if constexpr (!is_complex_v<T>)
    if (!kept && settings.structure == Structure::skew) make_skew_blocks_nonnegative(result);
  result.timings.compile_seconds = kernels.report().seconds;
  result.kernels = kernels.report().kinds;
  if (norm != NormPath::unchecked) {
    // A check a mode of a group a sweep; on the device path the bounds decided those not counted.
    PivotCheckCount& checks = result.pivot_checks.emplace();
    checks.checks = static_cast<long long>(result.sweeps()) * static_cast<long long>(state.groups) * state.order;
    checks.exact_norms = checks.checks;
    if (norm == NormPath::device) {
      int exact = 0;
      check_cuda(cudaMemcpy(&exact, state.exact_norms.data(), sizeof(int), cudaMemcpyDeviceToHost), "cudaMemcpy");
      checks.exact_norms = exact;
    }
  }
  return result;
}

}  // namespace

template <class T>
std::optional<std::string> gpu_engine_declines(const HostTensor<T>& first, std::size_t, const EngineRun& run) {
  // A skew matrix takes Paardekooper's 4 x 4 Murnaghan steps (cpu_skew_engine.hpp), which no GPU
  // kernel does.
  if (run.settings.structure == Structure::skew && first.order() == 2)
    return "structure skew at order 2 (the Murnaghan form of a skew matrix) runs on the CPU engine only";
  // Order 2 is a symmetric matrix (structure general refuses it before): the Jacobi eigenvalue
  // method, one Q, symmetric_angles at D = 2 (codegen::validate).
  GeneralKinds kinds = general_kinds(kernel_spec_for(first, run.rule, codegen::KernelKind::group_pass), kernel_set(run));
  if (!kinds.refusal.empty()) return std::move(kinds.refusal);
  // The tensors run one at a time.
  return current_device_memory_refusal(run_bytes(first.order(), first.size(), sizeof(T), run.settings));
}

template <class T>
Result<T> run_gpu_engine(const HostTensor<T>& tensor, const EngineRun& run) {
  return run_general<T>(tensor, run, nullptr);
}

template <class T>
DeviceResult<T> run_gpu_engine_on_device(const TensorView<T>& tensor, const EngineRun& run) {
  DeviceResult<T> kept;
  kept.run = run_general(tensor, run, &kept);
  return kept;
}

template std::optional<std::string> gpu_engine_declines(const HostTensor<float>&, std::size_t, const EngineRun&);
template std::optional<std::string> gpu_engine_declines(const HostTensor<double>&, std::size_t, const EngineRun&);
template Result<float> run_gpu_engine(const HostTensor<float>&, const EngineRun&);
template Result<double> run_gpu_engine(const HostTensor<double>&, const EngineRun&);
template DeviceResult<float> run_gpu_engine_on_device(const TensorView<float>&, const EngineRun&);
template DeviceResult<double> run_gpu_engine_on_device(const TensorView<double>&, const EngineRun&);
template std::optional<std::string> gpu_engine_declines(const HostTensor<std::complex<float>>&, std::size_t,
                                                        const EngineRun&);
template std::optional<std::string> gpu_engine_declines(const HostTensor<std::complex<double>>&, std::size_t,
                                                        const EngineRun&);
template Result<std::complex<float>> run_gpu_engine(const HostTensor<std::complex<float>>&, const EngineRun&);
template Result<std::complex<double>> run_gpu_engine(const HostTensor<std::complex<double>>&, const EngineRun&);

}  // namespace tensordiag::runtime
