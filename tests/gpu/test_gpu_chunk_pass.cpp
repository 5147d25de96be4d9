// chunk_pass alone (kernels_templates/chunk_pass.cu): one pivot group's rotations (random, some the
// identity) applied a chunk of memory modes a launch, then group_factors, against the CPU's fused
// pass (float64 to rounding, float32 to its rounding; complex dtypes with unitary rotations too). Its two forms, the shared-memory tiles and
// the register units, must give the same tensor value for value (every entry takes the same
// rotations in the same order), and chunk_pass_slab on a slab (some rows of the slowest memory
// mode, in shuffled places) the whole-tensor pass's values of those rows. The shapes and tile
// budgets take every branch of the tiled form: tiles of runs of a long inner stretch (a last
// partial run), tiles of several outer indices (inner stretches of 1 and of 3, 5 of them in 16
// columns), one mode a launch at N = 41, odd N (an unpaired index), both layouts, 1024 threads
// with the opt-in shared memory, grids of a few blocks (each block loops over many tiles, the
// next tile's copies in flight), and budgets too small for one mode's tile (the register form
// from the plan).
#include <doctest/doctest.h>

#include <algorithm>
#include <complex>
#include <numeric>

#include "codegen/builtin_rules.hpp"
#include "dsl/givens.hpp"
#include "random_group.hpp"
#include "relative_difference.hpp"
#include "runtime/algorithm/random_stream.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/cuda/cuda_stream.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/engines/gpu_kernels.hpp"
#include "runtime/engines/group_pass.hpp"

using namespace tensordiag::runtime;
namespace codegen = tensordiag::codegen;
using namespace tensordiag::testing;

namespace {

struct ChunkCase {
  int order, size;
  Layout layout;
  int tile_bytes;  // codegen Tuning::chunk_tile_bytes: -1 the default, 0 the register form
  long long max_grid = 65536;  // codegen Tuning::max_grid_blocks
};

template <class T>
struct DeviceGroup {
  DeviceBuffer<int> pairs;
  DeviceBuffer<tensordiag::dsl::Givens<T>> rotations;
};

template <class T>
GpuKernels<T> chunk_kernels(const ChunkCase& c, int tile_bytes) {
  codegen::KernelSpec spec =
      kernel_spec_for<T>(c.order, c.size, c.layout, codegen::lower_builtin_rule("max_diag"), codegen::KernelKind::chunk_pass);
  spec.tuning.chunk_tile_bytes = tile_bytes;
  spec.tuning.max_grid_blocks = c.max_grid;
  return GpuKernels<T>(spec, cuda_device()->arch(), KernelSet::chunk);
}

// The group's chunks of `kernels` on `values` (the whole tensor, or a slab with its rows table).
template <class T>
std::vector<T> run_chunks(const GpuKernels<T>& kernels, const std::vector<T>& values, const DeviceGroup<T>& group,
                          const int* rows = nullptr) {
  // Every upload on the stream of the kernels that read it: a copy from pageable memory on the
  // default stream may still be in flight when a kernel on a non-blocking stream starts (a shard of
  // the suite run beside two others read half-copied tensors).
  CudaStream stream;
  DeviceBuffer<T> tensor(values.size());
  tensor.upload(values, stream.get());
  for (const auto& [first, count] : kernels.chunk_plan->chunks) {
    if (rows)
      kernels.chunk_pass_slab(stream.get(), tensor.data(), group.pairs.data(), group.rotations.data(), first, count, rows);
    else
      kernels.chunk_pass(stream.get(), tensor.data(), group.pairs.data(), group.rotations.data(), first, count);
  }
  return tensor.download(stream.get());
}

template <class T>
void check_chunks(const ChunkCase& c, unsigned seed, double tolerance) {
  CAPTURE(c.order);
  CAPTURE(c.size);
  CAPTURE(c.tile_bytes);
  CAPTURE(c.max_grid);
  CAPTURE(seed);
  const GpuKernels<T> kernels = chunk_kernels<T>(c, c.tile_bytes);
  const bool tiled = kernels.chunk_plan->run > 0;
  CAPTURE(tiled);
  CAPTURE(kernels.chunk_plan->max_modes);

  RandomStream random(seed);
  HostTensor<T> tensor(c.order, c.size, c.layout);
  for (auto& x : tensor.values()) x = gaussian_scalar<T>(random);
  GroupRotations<T> group = random_group<T>(c.order, c.size, seed, random);
  std::vector<Matrix<T>> factors = random_factors<T>(c.order, c.size, random);
  const std::vector<int> pairs = flat_pairs(group.pairs);
  const auto rotations = kernel_rotations(group);
  DeviceGroup<T> device{DeviceBuffer<int>(pairs.size()), DeviceBuffer<tensordiag::dsl::Givens<T>>(rotations.size())};
  CudaStream stream;
  device.pairs.upload(pairs, stream.get());
  device.rotations.upload(rotations, stream.get());
  stream.synchronize();  // run_chunks' kernels read them on a stream of their own
  const std::vector<T> before(tensor.values().begin(), tensor.values().end());

  const std::vector<T> gpu = run_chunks(kernels, before, device);
  DeviceBuffer<T> d_factors(static_cast<std::size_t>(c.order) * c.size * c.size);
  d_factors.upload(flat_factors(factors), stream.get());
  kernels.group_factors(stream.get(), device.pairs.data(), device.rotations.data(), d_factors.data());
  const auto gpu_factors = d_factors.download(stream.get());

  apply_group_pass(tensor, group, 0);
  apply_group_to_factors(factors, group);
  CHECK(relative_difference(gpu, tensor.values()) <= tolerance);
  CHECK(relative_difference(gpu_factors, flat_factors(factors)) <= tolerance);

  // The other form: value for value.
  if (tiled) {
    const std::vector<T> units = run_chunks(chunk_kernels<T>(c, 0), before, device);
    CHECK(units == gpu);
  }

  // A slab: the pairs of the slowest memory mode kept with probability 1/2 (at least one), the
  // unpaired index of an odd N too, in a shuffled order of rows.
  const long long row_entries = static_cast<long long>(before.size()) / c.size;
  std::vector<int> held;
  for (const auto [p, q] : group.pairs)
    if (random.uniform() < 0.5 || (held.empty() && p == group.pairs.back().p)) held.insert(held.end(), {p, q});
  if (c.size % 2 == 1 && random.uniform() < 0.5) {
    std::vector<bool> paired(static_cast<std::size_t>(c.size), false);
    for (const auto [p, q] : group.pairs) paired[static_cast<std::size_t>(p)] = paired[static_cast<std::size_t>(q)] = true;
    held.push_back(static_cast<int>(std::find(paired.begin(), paired.end(), false) - paired.begin()));
  }
  std::vector<int> places(held.size());
  std::iota(places.begin(), places.end(), 0);
  for (std::size_t i = places.size(); i > 1; --i) std::swap(places[i - 1], places[static_cast<std::size_t>(random.uniform() * static_cast<double>(i))]);
  std::vector<int> rows(static_cast<std::size_t>(c.size), -1);
  std::vector<T> slab(held.size() * static_cast<std::size_t>(row_entries));
  for (std::size_t h = 0; h < held.size(); ++h) {
    rows[static_cast<std::size_t>(held[h])] = places[h];
    std::copy_n(before.begin() + held[h] * row_entries, row_entries, slab.begin() + places[h] * row_entries);
  }
  CAPTURE(held.size());
  DeviceBuffer<int> d_rows(rows.size());
  d_rows.upload(rows, stream.get());
  stream.synchronize();
  const std::vector<T> slab_after = run_chunks(kernels, slab, device, d_rows.data());
  bool same = true;
  for (std::size_t h = 0; h < held.size(); ++h)
    same = same && std::equal(slab_after.begin() + places[h] * row_entries, slab_after.begin() + (places[h] + 1) * row_entries,
                              gpu.begin() + held[h] * row_entries);
  CHECK(same);
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("chunk_pass tiled and in registers equals the CPU's fused pass, its slab kernel the whole tensor's rows") {
    if (!cuda_device()) {
      MESSAGE("skipped: " << cuda_unavailable_reason());
      return;
    }
    constexpr int asked = 48 * 1024;  // the tiled form at even N too
    const ChunkCase cases[] = {
        {9, 3, Layout::c_order, -1},           // 5 and 4 modes: runs of 81 (a short last run), then stretches of 81, 16 a tile
        {9, 3, Layout::c_order, -1, 3},        // the same on 3 blocks: each loops over its tiles, the next one's copies in flight
        {14, 2, Layout::fortran_order, asked}, // N = 2: 7 and 7 modes
        {14, 2, Layout::c_order, -1},          // N = 2 by default: the register form
        {7, 4, Layout::c_order, asked, 5},     // 3, 2 and 2 modes on 5 blocks
        {6, 5, Layout::fortran_order, -1},     // odd N = 5: 3 and 3 modes
        {9, 3, Layout::fortran_order, 49152, 4},  // within 48 KB: 3, 3 and 3 modes; runs of 729 and 27, stretches of 27
        {5, 3, Layout::c_order, 2560, 2},      // 2, 2 and 1 modes: runs of 27, stretches of 27 (5 a tile) and of 3
        {3, 41, Layout::c_order, -1},          // one mode a launch, runs of 41 (a short last run)
        {3, 41, Layout::fortran_order, 8192},  // no mode's tile fits: the register form
        {6, 4, Layout::c_order, 0},            // the register form asked
        {12, 3, Layout::c_order, 196608},      // 2 launches of 6 modes: 1024 threads, the opt-in shared memory
    };
    unsigned seed = 31;
    for (const auto& c : cases) check_chunks<double>(c, seed++, 1e-14);
    check_chunks<float>({10, 3, Layout::c_order, -1}, seed++, 1e-6);
    check_chunks<float>({16, 2, Layout::fortran_order, asked}, seed++, 1e-6);
  }

  TEST_CASE("chunk_pass on complex tensors: the unitary rotations tiled and in registers equal the CPU's fused pass") {
    if (!cuda_device()) {
      MESSAGE("skipped: " << cuda_unavailable_reason());
      return;
    }
    using C64 = std::complex<float>;
    using C128 = std::complex<double>;
    unsigned seed = 71;
    check_chunks<C128>({9, 3, Layout::c_order, -1}, seed++, 1e-14);         // tiled: runs, then stretches
    check_chunks<C128>({7, 4, Layout::fortran_order, 48 * 1024, 5}, seed++, 1e-14);  // tiled at even N on 5 blocks
    check_chunks<C128>({6, 5, Layout::c_order, 0}, seed++, 1e-14);          // the register form
    check_chunks<C64>({10, 3, Layout::fortran_order, -1}, seed++, 1e-6);
    check_chunks<C64>({12, 3, Layout::c_order, 196608}, seed++, 1e-6);      // 1024 threads, the opt-in shared memory
  }
}
