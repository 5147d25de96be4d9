#include "runtime/engines/gpu_kernels.hpp"


#include "codegen/codegen_error.hpp"
#include "codegen/kernel_plan.hpp"
#include "codegen/kernel_source.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/cuda/kernel_cache.hpp"
#include "runtime/core/stopwatch.hpp"

namespace tensordiag::runtime {

template <class T>
codegen::KernelSpec kernel_spec_for(const HostTensor<T>& tensor, const codegen::LoweredRule& rule,
                                    codegen::KernelKind kind) {
  codegen::KernelSpec spec{kind, tensor.order(), tensor.size(),
                           std::is_same_v<T, float> ? codegen::ScalarType::float32 : codegen::ScalarType::float64,
                           tensor.layout(), rule, {}};
  try {
    codegen::validate(spec);
  } catch (const codegen::codegen_error& error) {
    throw user_error(std::string("the CUDA backend cannot take this tensor: ") + error.what());
  }
  return spec;
}

template codegen::KernelSpec kernel_spec_for(const HostTensor<float>&, const codegen::LoweredRule&, codegen::KernelKind);
template codegen::KernelSpec kernel_spec_for(const HostTensor<double>&, const codegen::LoweredRule&, codegen::KernelKind);

GpuKernels::GpuKernels(codegen::KernelSpec base, const std::string& arch, KernelSet set) {
  using codegen::KernelKind;
  const Stopwatch stopwatch;
  auto with_kind = [&base](KernelKind kind) {
    codegen::KernelSpec spec = base;
    spec.kind = kind;
    return spec;
  };
  if (set == KernelSet::one_block) {
    load(with_kind(KernelKind::small_tensor), arch, {{"small_tensor", &small_tensor}});
  } else {
    load(with_kind(KernelKind::pivot_angles), arch, {{"pivot_angles", &pivot_angles}, {"pivot_angles_mode", &pivot_angles_mode}});
    load(with_kind(KernelKind::group_pass), arch, {{"group_pass", &group_pass}});
    load(with_kind(KernelKind::off_norm), arch, {{"off_norm_partial", &off_norm_partial}, {"off_norm_final", &off_norm_final}});
    off_norm_partial_blocks = off_norm_partial.grid.x;
    pass_figure_blocks = std::stoll(codegen::plan_kernel(with_kind(KernelKind::group_pass)).values.at("pass_blocks"));
    if (set == KernelSet::general_with_pivot_check) {
      load(with_kind(KernelKind::pivot_check_gather), arch, {{"pivot_check_gather", &pivot_check_gather}});
      try {
        codegen::plan_kernel(with_kind(KernelKind::lambda_norm));
        has_lambda_norm = true;
      } catch (const codegen::codegen_error&) {
        has_lambda_norm = false;  // too large for one block: the engine takes cuSOLVER's
      }
      if (has_lambda_norm) load(with_kind(KernelKind::lambda_norm), arch, {{"lambda_norm", &lambda_norm}});
    }
  }
  report_.cache_warnings = default_kernel_cache().warnings();
  report_.seconds = stopwatch.seconds();
}

void GpuKernels::load(codegen::KernelSpec spec, const std::string& arch,
                      const std::vector<std::pair<std::string, GpuKernel*>>& wanted) {
  const std::string kind(codegen::to_string(spec.kind));
  const CompiledKernel compiled = default_kernel_cache().get_or_compile(codegen::kernel_source(spec), codegen::program_name(spec), {}, arch);
  if (compiled.origin == KernelOrigin::compiled) ++report_.compiled;
  libraries_.push_back(std::make_unique<CudaLibrary>(compiled.cubin));
  const auto entries = codegen::kernel_entries(spec);
  for (const auto& [name, kernel] : wanted) {
    const codegen::KernelEntry* entry = nullptr;
    for (const auto& e : entries)
      if (e.name == name) entry = &e;
    if (!entry) throw internal_error("codegen source for " + kind + " defines no kernel " + name);
    kernel->function = libraries_.back()->kernel(name);
    kernel->grid = dim3(static_cast<unsigned>(entry->grid_blocks));
    kernel->block = dim3(static_cast<unsigned>(entry->block_threads));
  }
}

}  // namespace tensordiag::runtime
