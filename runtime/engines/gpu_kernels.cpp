#include "runtime/engines/gpu_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <thread>

#include <variant>

#include "codegen/codegen_error.hpp"
#include "codegen/kernel_source.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/cuda/cuda_check.hpp"
#include "runtime/cuda/kernel_cache.hpp"
#include "runtime/cuda/loaded_libraries.hpp"
#include "runtime/core/stopwatch.hpp"
#include "runtime/engines/spec_kernels.hpp"
#include "runtime/engines/tuning_environment.hpp"

namespace tensordiag::runtime {

namespace {

// Every kind's cubin at once, a thread each: NVRTC compiles separate programs in parallel and the
// kernel cache takes concurrent requests (issue 15: a cold shape was 1.0 s of compiles one after
// the other, 0.53 s on two threads). Kernels this process already has (spec_kernels.hpp) take no
// thread. Returns each spec's kernel for the load walk to take, with whether NVRTC compiled it; null
// where the request failed: that kind's load asks again and reports why.
std::vector<FetchedKernel> compile_in_parallel(const std::vector<codegen::KernelSpec>& specs, const std::string& arch) {
  std::vector<FetchedKernel> kernels(specs.size());
  const auto fetch = [&kernels, &specs, &arch](std::size_t i) {
    try {
      kernels[i].kernel = kernel_for_spec(specs[i], arch, &kernels[i].compiled);
    } catch (...) {
    }
  };
  std::vector<std::size_t> missing;
  for (std::size_t i = 0; i < specs.size(); ++i)
    if (!(kernels[i].kernel = known_kernel_for_spec(specs[i], arch))) missing.push_back(i);
  // The calling thread takes the first missing spec (a single one needs no thread at all).
  std::vector<std::thread> threads;
  for (std::size_t m = 1; m < missing.size(); ++m) threads.emplace_back(fetch, missing[m]);
  if (!missing.empty()) fetch(missing.front());
  for (std::thread& thread : threads) thread.join();
  return kernels;
}

}  // namespace

namespace {

template <class T>
constexpr codegen::ScalarType scalar_type_of() {
  if constexpr (std::is_same_v<T, float>) return codegen::ScalarType::float32;
  else if constexpr (std::is_same_v<T, double>) return codegen::ScalarType::float64;
  else if constexpr (std::is_same_v<T, std::complex<float>>) return codegen::ScalarType::complex64;
  else return codegen::ScalarType::complex128;
}

}  // namespace

template <class T>
codegen::KernelSpec kernel_spec_for(const TensorView<T>& tensor, const codegen::LoweredRule& rule,
                                    codegen::KernelKind kind) {
  return kernel_spec_for<T>(tensor.order(), tensor.size(), tensor.layout(), rule, kind);
}

template <class T>
codegen::KernelSpec kernel_spec_for(int order, int size, Layout layout, const codegen::LoweredRule& rule,
                                    codegen::KernelKind kind) {
  // With the tuning variables set in the environment (tuning_environment.hpp), so that every
  // choice made from the spec sees what the kernels will be built with.
  codegen::KernelSpec spec{kind, order, size, scalar_type_of<T>(), layout, rule, tuning_from_environment({})};
  try {
    codegen::validate(spec);
  } catch (const codegen::codegen_error& error) {
    throw user_error(std::string("the CUDA backend cannot take this tensor: ") + error.what());
  }
  return spec;
}

template codegen::KernelSpec kernel_spec_for(const TensorView<float>&, const codegen::LoweredRule&, codegen::KernelKind);
template codegen::KernelSpec kernel_spec_for(const TensorView<double>&, const codegen::LoweredRule&, codegen::KernelKind);
template codegen::KernelSpec kernel_spec_for<float>(int, int, Layout, const codegen::LoweredRule&, codegen::KernelKind);
template codegen::KernelSpec kernel_spec_for<double>(int, int, Layout, const codegen::LoweredRule&, codegen::KernelKind);
template codegen::KernelSpec kernel_spec_for(const TensorView<std::complex<float>>&, const codegen::LoweredRule&,
                                             codegen::KernelKind);
template codegen::KernelSpec kernel_spec_for(const TensorView<std::complex<double>>&, const codegen::LoweredRule&,
                                             codegen::KernelKind);
template codegen::KernelSpec kernel_spec_for<std::complex<float>>(int, int, Layout, const codegen::LoweredRule&,
                                                                   codegen::KernelKind);
template codegen::KernelSpec kernel_spec_for<std::complex<double>>(int, int, Layout, const codegen::LoweredRule&,
                                                                    codegen::KernelKind);

namespace {

// At odd N group_pass's tiles give each outer memory mode a p-or-q slot, and the unpaired index
// leaves (1 + 1/N)^(D - 1) times the tensor's entries in slots (group_pass.cu); chunk_pass reads and
// writes the tensor once a run of modes. Measured on an H100 (float32 unless said, 10 sweeps, ms a
// sweep, group_pass against chunk_pass; bench/results/odd_pass_h100_2026-11-27.md): N = 3, D = 11
// (17.8 times the entries) 0.14 against 0.22; D = 12 (23.7) 0.31 against 0.27; D = 13 1.06 against
// 0.53 (float64 1.01 against 0.25, complex64 1.56 against 0.27); D = 15 17.1 against 0.74; N = 5,
// D = 9 (4.3) 0.23 against 0.27; N = 7 and 9 up to 5.5 M entries: group_pass 2-5 times faster.
constexpr double chunk_pass_slot_ratio = 20.0;

bool chunk_pass_pays(const codegen::KernelSpec& base) {
  return base.size % 2 == 1 && std::pow(1.0 + 1.0 / base.size, base.order - 1) >= chunk_pass_slot_ratio;
}

}  // namespace

GeneralKinds general_kinds(const codegen::KernelSpec& base, KernelSet set) {
  using codegen::KernelKind;
  const bool checked = set == KernelSet::general_with_pivot_check;
  auto attempt = [&base](KernelKind kind) {
    codegen::KernelSpec spec = base;
    spec.kind = kind;
    return codegen::try_plan(spec);
  };
  GeneralKinds kinds;
  if (set == KernelSet::general_symmetric) {
    kinds.angles = KernelKind::symmetric_angles;
  } else if (set == KernelSet::general_skew) {
    kinds.angles = KernelKind::skew_angles;
  } else if (checked) {
    // One mode a launch from the gather's pivot entries (lambda_norm's epilogue, or checked_angles
    // after cuSOLVER's norm): every order.
    kinds.angles = KernelKind::pivot_check_gather;
  } else if (!attempt(KernelKind::pivot_angles).plan) {
    kinds.angles = KernelKind::pivot_angles_split;
  }
  // chunk_pass where group_pass cannot plan, else where it pays (TENSORDIAG_CHUNKED_PASS: always, 1,
  // or never, 0).
  const int chunked = chunked_pass_from_environment();
  const bool wanted = chunked == 1 || (chunked == -1 && chunk_pass_pays(base));
  if (wanted || !attempt(KernelKind::group_pass).plan) kinds.pass = KernelKind::chunk_pass;
  const std::vector<KernelKind> rest{kinds.angles, kinds.pass, KernelKind::off_norm};
  for (const KernelKind kind : rest)
    if (codegen::PlanAttempt planned = attempt(kind); !planned.plan) {
      kinds.refusal = std::move(planned.refusal);
      return kinds;
    }
  return kinds;
}

template <class T>
GpuKernels<T>::GpuKernels(codegen::KernelSpec base, const std::string& arch, KernelSet set) {
  using codegen::KernelKind;
  const Stopwatch stopwatch;
  if (base.dtype != scalar_type_of<T>()) throw internal_error("GpuKernels: the spec's dtype is not the scalar type's");
  // The tuning variables that are set replace the fields they name, for every kind; unset ones keep
  // the caller's values (a test's tuning, or the default). kernel_spec_for's specs carry them
  // already: applying them again changes nothing.
  base.tuning = tuning_from_environment(base.tuning);
  base_ = base;
  auto with_kind = [&base](KernelKind kind) {
    codegen::KernelSpec spec = base;
    spec.kind = kind;
    // The plan keeps chunk_pass's tiles within this device's opt-in shared memory.
    if (kind == KernelKind::chunk_pass) spec.tuning.opt_in_shared_bytes = current_device_opt_in_shared_bytes();
    return spec;
  };
  // Loads kind's kernels and returns its typed plan.
  auto load_kind = [&](KernelKind kind, std::initializer_list<LoadedKernel*> kernels) {
    const codegen::KernelSpec spec = with_kind(kind);
    const codegen::KernelPlan plan = codegen::plan_kernel(spec);
    load(spec, plan, arch, kernels);
    return plan.kind_plan;
  };
  auto load_off_norm = [&] {
    off_norm_plan = std::get<codegen::OffNormPlan>(
        load_kind(KernelKind::off_norm, {&off_norm_partial, &off_norm_final, &residual_partial}));
  };
  // Which kinds this set loads, walked twice: first only recording each kind's spec (load() does
  // nothing else while planned_ is set), so that they compile at once on several threads; then
  // loading them, from the cache.
  const auto select = [&] {
    if (set == KernelSet::one_block) {
      load_kind(KernelKind::small_tensor, {&small_tensor});
    } else if (set == KernelSet::subspace) {
      load_off_norm();
    } else if (set == KernelSet::packed) {
      // packed_group where the shape's orbits are small enough (the plan says), else packed_rotate.
      const codegen::KernelSpec spec = with_kind(KernelKind::packed_symmetric);
      const codegen::KernelPlan plan = codegen::plan_kernel(spec);
      packed_plan = std::get<codegen::PackedSymmetricPlan>(plan.kind_plan);
      if (packed_plan->group_orbits)
        load(spec, plan, arch, {&packed_angles, &packed_group, &packed_factor, &packed_figures, &packed_figures_final});
      else
        load(spec, plan, arch, {&packed_angles, &packed_rotate, &packed_factor, &packed_figures, &packed_figures_final});
    } else if (set == KernelSet::chunk) {
      chunk_plan = std::get<codegen::ChunkPassPlan>(
          load_kind(KernelKind::chunk_pass, {&chunk_pass, &chunk_pass_slab, &group_factors}));
    } else if (set == KernelSet::qubit) {
      qubit_plan = std::get<codegen::QubitSweepPlan>(
          load_kind(KernelKind::qubit_sweep, {&qubit_reduce_low, &qubit_reduce_high, &qubit_settle, &qubit_angles}));
      chunk_plan = std::get<codegen::ChunkPassPlan>(load_kind(KernelKind::chunk_pass, {&chunk_pass, &group_factors}));
      load_off_norm();
    } else {
      const GeneralKinds kinds = general_kinds(base, set);
      if (!kinds.refusal.empty()) throw user_error("the CUDA backend cannot take this tensor: " + kinds.refusal);
      if (kinds.angles == KernelKind::pivot_check_gather)
        load_kind(KernelKind::pivot_check_gather,
                  {&pivot_check_gather, &pivot_check_lines, &lambda_from_lines, &checked_angles});
      else if (kinds.angles == KernelKind::pivot_angles)
        load_kind(KernelKind::pivot_angles, {&pivot_angles, &pivot_subtensors, &gathered_angles});
      else if (kinds.angles == KernelKind::symmetric_angles && codegen::symmetric_step_on_host(with_kind(kinds.angles)))
        host_step_plan = std::get<codegen::SymmetricAnglesPlan>(
            load_kind(KernelKind::symmetric_angles, {&symmetric_pivot_sums}));
      else if (kinds.angles == KernelKind::symmetric_angles)
        load_kind(KernelKind::symmetric_angles, {&symmetric_angles});
      else if (kinds.angles == KernelKind::skew_angles)
        skew_plan = std::get<codegen::SkewAnglesPlan>(
            load_kind(KernelKind::skew_angles, {&skew_angles, &skew_figures_partial}));
      else
        split_plan = std::get<codegen::PivotAnglesSplitPlan>(
            load_kind(KernelKind::pivot_angles_split, {&pivot_head, &pivot_contract, &pivot_tail}));
      if (kinds.pass == KernelKind::group_pass)
        group_pass_plan = std::get<codegen::GroupPassPlan>(load_kind(KernelKind::group_pass, {&group_pass}));
      else
        chunk_plan = std::get<codegen::ChunkPassPlan>(
            load_kind(KernelKind::chunk_pass, {&chunk_pass, &chunk_pass_slab, &group_factors}));
      load_off_norm();
      if (set == KernelSet::general_with_pivot_check) {
        // Refused above N = 1024 (complex: 512, its Lambda the 2N x 2N embedding): the engine takes
        // cuSOLVER's norm.
        const codegen::KernelSpec norm = with_kind(KernelKind::lambda_norm);
        if (const codegen::PlanAttempt attempt = codegen::try_plan(norm); attempt.plan) {
          load(norm, *attempt.plan, arch, {&lambda_norm});
          lambda_norm_plan = std::get<codegen::LambdaNormPlan>(attempt.plan->kind_plan);
        }
      }
    }
  };
  std::vector<codegen::KernelSpec> planned;
  planned_ = &planned;
  select();
  planned_ = nullptr;
  std::vector<FetchedKernel> fetched = compile_in_parallel(planned, arch);
  for (const FetchedKernel& kernel : fetched)
    if (kernel.compiled) ++report_.compiled;
  // The load walk takes them in the same order (the walks are the same), not from the cache again.
  fetched_ = &fetched;
  fetched_specs_ = &planned;
  select();
  fetched_ = nullptr;
  fetched_specs_ = nullptr;
  report_.cache_warnings = default_kernel_cache().warnings();
  report_.seconds = stopwatch.seconds();
}

namespace {

int current_device() {
  int device = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  return device;
}

int current_device_attribute(cudaDeviceAttr attribute) {
  int value = 0;
  check_cuda(cudaDeviceGetAttribute(&value, attribute, current_device()), "cudaDeviceGetAttribute");
  return value;
}

}  // namespace

int current_device_opt_in_shared_bytes() { return current_device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin); }

bool current_device_overlaps_launches() { return current_device_attribute(cudaDevAttrComputeCapabilityMajor) >= 9; }

codegen::KernelSpec subspace_angles_spec(codegen::KernelSpec base, int cell_bits, bool symmetric) {
  base.kind = codegen::KernelKind::subspace_angles;
  base.size = 1 << cell_bits;
  base.layout = dsl::Layout::c_order;
  base.symmetric = symmetric;
  return base;
}

template <class T>
void GpuKernels<T>::load_subspace(const std::string& arch, int cell_bits, bool symmetric) {
  const Stopwatch stopwatch;
  codegen::KernelSpec apply = base_;
  apply.kind = codegen::KernelKind::subspace_apply;
  apply.tuning.subspace_bits = cell_bits;
  apply.tuning.opt_in_shared_bytes = current_device_opt_in_shared_bytes();
  apply.symmetric = symmetric;
  const codegen::KernelPlan apply_plan = codegen::plan_kernel(apply);
  subspace_plan = std::get<codegen::SubspaceApplyPlan>(apply_plan.kind_plan);
  load(apply, apply_plan, arch, {&subspace_apply});
  const codegen::KernelSpec angles = subspace_angles_spec(base_, subspace_plan->cell_bits, symmetric);
  load(angles, codegen::plan_kernel(angles), arch, {&subspace_angles});
  report_.seconds += stopwatch.seconds();
}

template <class T>
void GpuKernels<T>::load_verification(const std::string& arch) {
  if (mode_product.function) return;
  const Stopwatch stopwatch;
  codegen::KernelSpec spec = base_;
  spec.kind = codegen::KernelKind::mode_product;
  load(spec, codegen::plan_kernel(spec), arch, {&mode_product});
  report_.seconds += stopwatch.seconds();
}

template <class T>
void GpuKernels<T>::load(const codegen::KernelSpec& spec, const codegen::KernelPlan& plan, const std::string& arch,
                         std::initializer_list<LoadedKernel*> kernels) {
  if (planned_) {
    planned_->push_back(spec);
    return;
  }
  const std::string kind(codegen::to_string(spec.kind));
  // The first walk's kernel for this spec, or a request of its own (a later load, or a failed one).
  FetchedKernel compiled;
  if (fetched_ && next_fetched_ < fetched_->size()) {
    const std::size_t i = next_fetched_++;
    if ((*fetched_specs_)[i].kind == spec.kind && codegen::program_name((*fetched_specs_)[i]) == codegen::program_name(spec))
      compiled = (*fetched_)[i];
  }
  if (!compiled.kernel) {
    bool compiled_now = false;
    compiled.kernel = kernel_for_spec(spec, arch, &compiled_now);
    if (compiled_now) ++report_.compiled;
  }
  report_.kinds.push_back(kind);
  libraries_.push_back(loaded_library(compiled.kernel->key, compiled.kernel->cubin));
  for (LoadedKernel* kernel : kernels) {
    const codegen::KernelEntry* entry = nullptr;
    for (const auto& e : plan.entries)
      if (e.name == kernel->name) entry = &e;
    if (!entry) throw internal_error("codegen source for " + kind + " defines no kernel " + std::string(kernel->name));
    kernel->function = libraries_.back()->kernel(entry->name);
    kernel->grid = dim3(static_cast<unsigned>(entry->grid_blocks));
    kernel->block = dim3(static_cast<unsigned>(entry->block_threads));
    kernel->dynamic_shared_bytes = static_cast<std::size_t>(entry->dynamic_shared_bytes);
    // Opt in to the dynamic shared memory on this device: static and dynamic together may pass
    // CUDA's default 48 KB only with the attribute set.
    if (entry->dynamic_shared_bytes > 0)
      check_cuda(cudaKernelSetAttributeForDevice(kernel->function, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                 static_cast<int>(entry->dynamic_shared_bytes), current_device()),
                 "cudaKernelSetAttributeForDevice (dynamic shared memory)");
    if (entry->resident_grid) {
      const int multiprocessors = current_device_attribute(cudaDevAttrMultiProcessorCount);
      int blocks_each = 0;
      // A library's kernel handle stands for the function pointer in the runtime's calls.
      check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_each, reinterpret_cast<const void*>(kernel->function),
                                                               entry->block_threads, kernel->dynamic_shared_bytes),
                 "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
      const long long resident = static_cast<long long>(std::max(blocks_each, 1)) * multiprocessors;
      kernel->grid = dim3(static_cast<unsigned>(std::min(entry->grid_blocks, resident)));
    }
  }
}

template class GpuKernels<float>;
template class GpuKernels<double>;
template class GpuKernels<std::complex<float>>;
template class GpuKernels<std::complex<double>>;

}  // namespace tensordiag::runtime
