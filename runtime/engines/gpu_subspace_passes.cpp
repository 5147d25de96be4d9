#include "runtime/engines/gpu_subspace_passes.hpp"

#include <complex>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

template <class T>
GpuSubspacePasses<T>::GpuSubspacePasses(std::vector<SubspacePass> passes, int size, Layout layout,
                                        const codegen::SubspaceApplyPlan& plan, cudaStream_t stream)
    : passes_(std::move(passes)), size_(size), layout_(layout), cosets_(size >> plan.cell_bits),
      blocks_(static_cast<std::size_t>(plan.block_scalars)), overlap_(current_device_overlaps_launches()) {
  std::vector<int> indices, groups;
  for (const SubspacePass& pass : passes_) {
    if (pass.dimension() != plan.cell_bits) throw internal_error("GpuSubspacePasses: a pass of another cell size");
    for (const int leader : pass.leaders)
      for (const int v : pass.span) indices.push_back(leader ^ v);
    group_spans_.emplace_back(groups.size(), static_cast<int>(pass.groups.size()));
    for (const int c : pass.groups)
      for (const auto [t, u] : pass.local_group(c)) groups.insert(groups.end(), {t, u});
  }
  indices_ = DeviceBuffer<int>(indices.size());
  indices_.upload(indices, stream);
  groups_ = DeviceBuffer<int>(groups.size());
  groups_.upload(groups, stream);
}

template <class T>
void GpuSubspacePasses<T>::enqueue(cudaStream_t stream, const GpuKernels<T>& kernels, T* tensor, T* factors) {
  // Each kernel begins while the one before it runs, where the device allows it (overlap_).
  const auto launch = [&](const auto& kernel, dim3 grid, auto... arguments) {
    if (overlap_) kernel.overlapping(grid, stream, arguments...);
    else kernel(grid, stream, arguments...);
  };
  const int fortran = layout_ == Layout::fortran_order ? 1 : 0;
  for (std::size_t p = 0; p < passes_.size(); ++p) {
    const int* indices = indices_.data() + p * static_cast<std::size_t>(size_);
    const auto [first, count] = group_spans_[p];
    launch(kernels.subspace_angles, dim3(static_cast<unsigned>(cosets_)), tensor, indices, size_, fortran,
           groups_.data() + first, count, blocks_.data());
    launch(kernels.subspace_apply, kernels.subspace_apply.grid, tensor, indices, blocks_.data(), factors);
  }
}

template class GpuSubspacePasses<float>;
template class GpuSubspacePasses<double>;
template class GpuSubspacePasses<std::complex<float>>;
template class GpuSubspacePasses<std::complex<double>>;

}  // namespace tensordiag::runtime
