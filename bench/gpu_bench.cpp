// GPU benchmark reproducing the seed paper's experiments (float32, diagonalizable tensors, 10
// sweeps): N = 8 with D = 3..9 and D = 3 with N = 8..256, eta = 0 and 0.00125, beside the paper's
// final CUDA version (its figures 3 and 4, table 1). GPU time is the sum of the sweeps' CUDA-event
// times, median of --repeats runs after a warm-up. Also: the device-to-device copy bandwidth, the
// group pass alone on large tensors, end-to-end time (call to result in host memory, warm kernel
// cache), and kernel load times (cold: an empty cache directory; warm: the memory cache).
//   usage: gpu_bench [OUT.json] [--repeats K] [--quick] [--no-eta] [--only DxN,..] [--budget SECONDS] [--sweep]
//                    [--schedules] [--symmetric] [--skew] [--complex] [--end-to-end] [--one-block] [--pass-blocks]
//                    [--schedule-dtypes] [--mirrored] [--fused] [--chunked] [--pass-bits] [--pass-fma] [--dtypes T,..]
//                    [--variant "NAME=V .."]..
// --quick skips the checked cases above 10^6 entries, --no-eta every checked case; --only runs the
// cases and group-pass shapes of those shapes alone (no end-to-end table). Each case runs with the
// engine's default schedule; --schedules also runs the round robin and the XOR passes at every
// cell size that fits (TENSORDIAG_SUBSPACE_BITS), one line each. --symmetric runs only the
// structure-symmetric table (issue 11, Speed): planted symmetric float32 tensors, 10 sweeps with
// structure symmetric and, on the same tensors, the general engine with its default schedule and
// with the round robin the symmetric run takes. --skew runs only the structure-skew table: planted
// skew float32 tensors, 10 sweeps with structure skew on the GPU, beside the CPU skew engine and the
// general engine's round robin on the same tensors. --complex runs only the complex table (issue 11,
// item 3: complex64 at most 2.5x float32): planted complex64 and complex128 tensors beside float32
// and float64 ones of the same shape, 10 sweeps each, the real ones with the round robin (the
// complex runs' order) and float32 also with its default schedule; with --sweep, first the complex
// group_pass alone at each register-bits and block-size choice. --end-to-end runs only the
// end-to-end table (call to result in host memory, with report.json's timings beside).
// --one-block runs only the one-block table: single general tensors on the one-block engine and on
// the general one, and the one-block engine's time per tensor in a batch of 256. --pass-blocks runs
// only the round robin of small and mid-size shapes at each group_pass block size, every dtype;
// --schedule-dtypes only the round robin against the XOR passes (cells of 4 and 8) in every dtype at
// the shapes of orders 4 to 6 that auto's order-4 rule was read from; with --symmetric, the same on
// planted symmetric float32 and float64 tensors with structure symmetric, orders 3 to 7.
// --mirrored runs only structure symmetric's XOR passes with subspace_apply's tiles mirrored and
// not (TENSORDIAG_SUBSPACE_MIRRORED), float32 and float64. --fused runs only the XOR passes with
// subspace_apply's outer modes fused with its load and store or not (TENSORDIAG_SUBSPACE_FUSED),
// every dtype; with --symmetric, planted symmetric float32 and float64 tensors. --chunked runs only
// the round robin's pass as group_pass and as chunk_pass (TENSORDIAG_CHUNKED_PASS) at large orders,
// every dtype; --pass-bits only the round robin at group_pass's register bits, every dtype; --pass-fma
// only the passes' mixing by fused multiply-adds or not; --variant "NAME=V .." (repeatable) only the
// round robin at the --only shapes under each such set of environment variables ('-': none).
// --dtypes limits the tables that run every dtype to those named.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "dsl/givens.hpp"
#include "codegen/builtin_rules.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/cuda/cuda_stream.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "bench/forced_sweeps.hpp"
#include "bench/statistics.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/algorithm/complex_generator.hpp"
#include "runtime/algorithm/generator.hpp"
#include "runtime/engines/gpu_engine.hpp"
#include "runtime/engines/gpu_kernels.hpp"
#include "runtime/engines/gpu_small_engine.hpp"
#include "runtime/algorithm/pivot_schedule.hpp"
#include "runtime/algorithm/random_stream.hpp"
#include "runtime/core/scalar.hpp"

using namespace tensordiag::runtime;
using tensordiag::bench::forced_sweep_settings;
using tensordiag::bench::median;
using tensordiag::bench::sweeps_seconds;
using tensordiag::bench::wall_seconds;
namespace codegen = tensordiag::codegen;

namespace {

struct Case {
  int order, size;
  double eta;
  double paper_cuda_seconds;  // the seed's "CUDA 3" curve; 0 where it has none
};

// The seed's figure 3 (N = 8) and figure 4 (D = 3) data for its final CUDA version.
const std::vector<Case> cases = {
    {3, 8, 0, 0.002874},  {4, 8, 0, 0.003902},  {5, 8, 0, 0.004995},   {6, 8, 0, 0.006755},
    {7, 8, 0, 0.016143},  {8, 8, 0, 0.097370},  {9, 8, 0, 0.797681},   {3, 16, 0, 0.006238},
    {3, 32, 0, 0.013274}, {3, 64, 0, 0.030902}, {3, 128, 0, 0.124943}, {3, 256, 0, 0},
    {3, 8, 0.00125, 0.072255},   {4, 8, 0.00125, 0.083364},   {5, 8, 0.00125, 0.094782},
    {6, 8, 0.00125, 0.125077},   {7, 8, 0.00125, 0.350241},   {8, 8, 0.00125, 2.786550},
    {9, 8, 0.00125, 27.809240},  {3, 16, 0.00125, 0.12368},   {3, 32, 0.00125, 0.443783},
    {3, 64, 0.00125, 1.659189},  {3, 128, 0.00125, 28.273055},
    {6, 16, 0, 0},               {12, 4, 0, 0},               {30, 2, 0, 0},
    // Orders 4 to 7 at N = 16 to 64: where the XOR subspace passes (cells of 4) beat the round robin.
    {4, 16, 0, 0},               {4, 32, 0, 0},               {4, 64, 0, 0},
    {5, 16, 0, 0},               {5, 32, 0, 0},               {7, 16, 0, 0},
};

// Read + write bytes per second of a device-to-device copy of 1 GiB.
double copy_bandwidth() {
  const std::size_t bytes = std::size_t{1} << 30;
  DeviceBuffer<char> a(bytes), b(bytes);
  CudaStream stream;
  CudaEvent start, stop;
  std::vector<double> times;
  for (int r = 0; r < 7; ++r) {
    start.record(stream.get());
    check_cuda(cudaMemcpyAsync(b.data(), a.data(), bytes, cudaMemcpyDeviceToDevice, stream.get()), "copy");
    stop.record(stream.get());
    stream.synchronize();
    if (r > 0) times.push_back(stop.seconds_since(start));
  }
  return 2.0 * static_cast<double>(bytes) / median(times);
}

// One group_pass launch alone (random rotations), read + write bytes per second, for float32
// (the paper's dtype) or a complex T (its rotations: c = al real, s = be complex).
template <class T = float>
double group_pass_bandwidth(int order, int size, const codegen::Tuning& tuning) {
  const HostTensor<T> tensor(order, size, Layout::c_order);
  const auto schedule = round_robin_schedule(size);
  codegen::KernelSpec spec = kernel_spec_for(tensor, codegen::lower_builtin_rule("max_diag"), codegen::KernelKind::group_pass);
  spec.tuning = tuning;
  const GpuKernels<T> kernels(spec, cuda_device()->arch(), KernelSet::general);
  // The engine takes chunk_pass where group_pass does not plan (a tiling asked for that does not fit).
  if (kernels.group_pass_plan.threads == 0) throw std::runtime_error("group_pass does not plan under this tuning");
  // The uploads on the launches' stream (a default-stream copy from pageable memory may still land
  // while a non-blocking stream's kernel runs).
  CudaStream stream;
  DeviceBuffer<T> d_tensor(tensor.count());
  std::vector<T> values(tensor.count());
  RandomStream random(1);
  for (auto& v : values) {
    if constexpr (is_complex_v<T>) v = T(static_cast<real_t<T>>(random.gaussian()), static_cast<real_t<T>>(random.gaussian()));
    else v = static_cast<T>(random.gaussian());
  }
  d_tensor.upload(values, stream.get());
  // Every group of a sweep, one after another: their pairs lay the tiles' rows differently.
  const int groups = static_cast<int>(schedule.size());
  std::vector<DeviceBuffer<int>> d_pairs;
  for (const auto& group : schedule) {
    std::vector<int> pairs;
    for (const auto [p, q] : group) pairs.insert(pairs.end(), {p, q});
    d_pairs.emplace_back(pairs.size()).upload(pairs, stream.get());
  }
  std::vector<tensordiag::dsl::Givens<T>> rotations(static_cast<std::size_t>(order) * schedule[0].size());
  for (auto& r : rotations) {
    const double phi = random.uniform(), theta = 6.283185307179586 * random.uniform();
    if constexpr (is_complex_v<T>)
      r = {T(static_cast<real_t<T>>(std::cos(phi))), static_cast<T>(std::polar(std::sin(phi), theta))};
    else
      r = {static_cast<T>(std::cos(phi)), static_cast<T>(std::sin(phi))};
  }
  DeviceBuffer<tensordiag::dsl::Givens<T>> d_rotations(rotations.size());
  d_rotations.upload(rotations, stream.get());
  DeviceBuffer<T> d_factors(static_cast<std::size_t>(order) * size * size);  // rotated too, in the same launch
  CudaEvent start, stop;
  std::vector<double> times;
  for (int k = 0; k < 2 + std::max(10, groups); ++k) {
    start.record(stream.get());
    kernels.group_pass(stream.get(), d_tensor.data(), d_pairs[k % groups].data(), d_rotations.data(), d_factors.data(),
                       nullptr, nullptr);
    stop.record(stream.get());
    stream.synchronize();
    if (k > 1) times.push_back(stop.seconds_since(start));
  }
  return 2.0 * static_cast<double>(tensor.count() * sizeof(T)) / median(times);
}

// `options` on the GPU for exactly 10 sweeps, as the paper measured.
Options ten_sweeps_on_gpu(Options options) {
  options.backend = Backend::cuda;
  options.max_sweeps = 10;
  options.tol = 1e-300;
  options.stall_tol = 0;
  return options;
}

// The median GPU time (the sum of the sweeps' CUDA-event times) of `repeats` runs of 10 sweeps,
// after a warm-up that loads the kernels; the last run's result.
template <class T>
std::pair<double, Result<T>> ten_sweeps(const HostTensor<T>& tensor, Options asked, int repeats) {
  const Options options = ten_sweeps_on_gpu(asked);
  diagonalize(tensor, options);
  std::vector<double> times;
  Result<T> result;
  for (int r = 0; r < repeats; ++r) {
    result = diagonalize(tensor, options);
    times.push_back(sweeps_seconds(result.history));
  }
  return {median(times), std::move(result)};
}

// A planted float32 tensor of the structure (seed 2026) with relative noise `noise`.
HostTensor<float> planted_float32(int order, int size, Structure structure, double noise) {
  GeneratorOptions g;
  g.order = order;
  g.size = size;
  g.seed = 2026;
  g.noise = noise;
  g.structure = structure;
  return generate_diagonalizable<float>(g).tensor;
}

// Structure symmetric beside the general engine on the same planted symmetric tensors (float32,
// 10 sweeps): the symmetric run (its default schedule), the general run with its default schedule,
// and the general run with the round robin. The last four shapes hold 2^24 entries or more, where
// the symmetric XOR passes may mirror their tiles (kernel_plan.cpp, subspace_mirrored).
nlohmann::json symmetric_table(int repeats, double copy_bw) {
  std::printf("structure symmetric beside the general engine (float32, planted symmetric, 10 sweeps):\n"
              "%-3s %-4s %-11s %-9s %-11s %-11s %-9s %-11s %-9s %-9s\n", "D", "N", "sym_ms", "sym_off", "sym_of_copy",
              "general_ms", "schedule", "general_rr", "sym/gen", "sym/rr");
  nlohmann::json rows = nlohmann::json::array();
  for (auto [order, size] : {std::pair{3, 64}, {3, 128}, {4, 32}, {5, 16}, {6, 8}, {7, 6}, {7, 8}, {8, 6}, {3, 256}, {4, 64},
                             {5, 32}, {6, 16}}) {
    const auto tensor = planted_float32(order, size, Structure::symmetric, 0.0);
    Options symmetric;
    symmetric.structure = Structure::symmetric;
    Options round_robin;
    round_robin.schedule = SweepSchedule::round_robin;
    try {
      const auto [sym_t, sym] = ten_sweeps(tensor, symmetric, repeats);
      const auto [gen_t, gen] = ten_sweeps(tensor, Options{}, repeats);
      const auto [rr_t, rr] = ten_sweeps(tensor, round_robin, repeats);
      const double bytes = 10 * sym.passes_per_sweep * 2 * static_cast<double>(tensor.count()) * sizeof(float);
      std::printf("%-3d %-4d %-11.4f %-9.1e %-11.2f %-11.4f %-9s %-11.4f %-9.2f %-9.2f\n", order, size, sym_t * 1e3,
                  sym.history.back().off_rel, bytes / sym_t / copy_bw, gen_t * 1e3, gen.schedule.c_str(), rr_t * 1e3,
                  sym_t / gen_t, sym_t / rr_t);
      rows.push_back({{"order", order}, {"size", size}, {"dtype", "float32"}, {"symmetric_engine", sym.engine},
                      {"symmetric_seconds_median", sym_t}, {"symmetric_final_off_rel", sym.history.back().off_rel},
                      {"symmetric_fraction_of_copy_bandwidth", bytes / sym_t / copy_bw},
                      {"symmetric_kernels", sym.kernels}, {"general_seconds_median", gen_t},
                      {"general_schedule", gen.schedule}, {"general_engine", gen.engine},
                      {"general_round_robin_seconds_median", rr_t}});
    } catch (const std::exception& e) {
      std::printf("%-3d %-4d %s\n", order, size, e.what());
    }
  }
  return rows;
}

// Structure skew on the GPU beside the CPU skew engine (this machine's cores) and beside the general
// GPU engine's round robin, on the same planted skew tensors (float32, 10 sweeps): the skew run's
// passes (its padded groups: about N D a sweep, against N - 1) and their fraction of the copy
// bandwidth. The CPU runs once, and only where 10 sweeps take seconds (N^D <= 2^18).
nlohmann::json skew_table(int repeats, double copy_bw) {
  std::printf("structure skew on the GPU (float32, planted skew, noise 1e-2, 10 sweeps):\n"
              "%-3s %-4s %-11s %-7s %-9s %-11s %-11s %-11s %-9s %-9s %s\n", "D", "N", "skew_ms", "passes", "skew_off",
              "skew_of_copy", "cpu_skew_ms", "general_rr", "cpu/gpu", "skew/rr", "engine");
  nlohmann::json rows = nlohmann::json::array();
  for (auto [order, size] : {std::pair{3, 10}, {3, 30}, {3, 64}, {3, 128}, {3, 256}, {4, 16}, {4, 32}, {5, 12}, {6, 10}, {6, 13}}) {
    const auto tensor = planted_float32(order, size, Structure::skew, 1e-2);
    Options skew;
    skew.structure = Structure::skew;
    Options round_robin;
    round_robin.schedule = SweepSchedule::round_robin;
    try {
      const auto [skew_t, result] = ten_sweeps(tensor, skew, repeats);
      const auto [rr_t, rr] = ten_sweeps(tensor, round_robin, repeats);
      double cpu_t = 0;
      if (tensor.count() <= (std::size_t{1} << 18)) {
        Options cpu = ten_sweeps_on_gpu(skew);
        cpu.backend = Backend::cpu;
        cpu_t = sweeps_seconds(diagonalize(tensor, cpu).history);
      }
      const double bytes = 10 * result.passes_per_sweep * 2 * static_cast<double>(tensor.count()) * sizeof(float);
      std::printf("%-3d %-4d %-11.4f %-7d %-9.1e %-11.2f %-11s %-11.4f %-9s %-9.2f %s\n", order, size, skew_t * 1e3,
                  result.passes_per_sweep, result.history.back().off_rel, bytes / skew_t / copy_bw,
                  cpu_t > 0 ? std::to_string(cpu_t * 1e3).c_str() : "-", rr_t * 1e3,
                  cpu_t > 0 ? std::to_string(cpu_t / skew_t).c_str() : "-", skew_t / rr_t, result.engine.c_str());
      rows.push_back({{"order", order}, {"size", size}, {"dtype", "float32"}, {"skew_engine", result.engine},
                      {"skew_seconds_median", skew_t}, {"skew_passes_per_sweep", result.passes_per_sweep},
                      {"skew_final_off_rel", result.history.back().off_rel},
                      {"skew_fraction_of_copy_bandwidth", bytes / skew_t / copy_bw}, {"skew_kernels", result.kernels},
                      {"cpu_skew_seconds", cpu_t > 0 ? nlohmann::json(cpu_t) : nlohmann::json()},
                      {"general_round_robin_seconds_median", rr_t}});
    } catch (const std::exception& e) {
      std::printf("%-3d %-4d %s\n", order, size, e.what());
    }
  }
  return rows;
}

// Where a single tensor runs faster, on the one-block engine or on the general one: both engines
// called directly on the same planted float32 tensors of the structure (noise 1e-2, 10 sweeps
// forced), the median GPU time of `repeats` runs after a warm-up. The table sets the one-block
// engine's size limits for single tensors (gpu_small_engine.cpp). With `batch` > 1 also the
// one-block engine's time per tensor in a batch of that many copies (one launch).
nlohmann::json one_block_table(int repeats, Structure structure, int batch) {
  std::printf("single %s tensors, one-block engine against the general one (float32, 10 sweeps):\n"
              "%-3s %-4s %-8s %-14s %-12s %-9s %-16s\n", std::string(to_string(structure)).c_str(), "D", "N", "entries",
              "one_block_ms", "general_ms", "gen/one", "batch_ms/tensor");
  RunSettings settings = forced_sweep_settings(10);
  settings.structure = structure;
  const EngineRun run{settings, codegen::lower_builtin_rule("max_diag")};
  const auto gpu_seconds = [](const Result<float>& r) { return sweeps_seconds(r.history); };
  const auto shapes = structure == Structure::skew
                          ? std::vector<std::pair<int, int>>{{3, 10}, {3, 12}, {3, 14}, {3, 16}, {3, 18}, {3, 20},
                                                             {3, 22}, {4, 6}, {4, 8}, {4, 10}, {5, 6}, {5, 7}}
                          : std::vector<std::pair<int, int>>{{3, 4}, {3, 8}, {3, 10}, {3, 12}, {3, 14}, {3, 16}, {3, 18},
                                                             {4, 4}, {4, 5}, {4, 6}, {4, 8}, {5, 4}, {5, 5}, {6, 3}, {6, 4}};
  nlohmann::json rows = nlohmann::json::array();
  for (auto [order, size] : shapes) {
    const HostTensor<float> tensor = planted_float32(order, size, structure, 1e-2);
    try {
      std::vector<double> one, general, batched;
      const std::vector<HostTensor<float>> copies(static_cast<std::size_t>(std::max(batch, 1)), tensor);
      for (int r = 0; r <= repeats; ++r) {
        const double a = gpu_seconds(run_gpu_small_batch(std::span<const HostTensor<float>>(&tensor, 1), run).front());
        const double b = gpu_seconds(run_gpu_engine(tensor, run));
        // A batch's results share the launch: its GPU time is any one's.
        const double c = batch > 1 ? gpu_seconds(run_gpu_small_batch(std::span<const HostTensor<float>>(copies), run).front()) / batch : 0.0;
        if (r > 0) {  // the first is the warm-up
          one.push_back(a);
          general.push_back(b);
          batched.push_back(c);
        }
      }
      std::printf("%-3d %-4d %-8zu %-14.4f %-12.4f %-9.2f %-16.5f\n", order, size, tensor.count(), median(one) * 1e3,
                  median(general) * 1e3, median(general) / median(one), median(batched) * 1e3);
      rows.push_back({{"order", order}, {"size", size}, {"entries", tensor.count()},
                      {"one_block_seconds_median", median(one)}, {"general_seconds_median", median(general)},
                      {"batch", batch}, {"batch_seconds_per_tensor_median", median(batched)}});
    } catch (const std::exception& e) {
      std::printf("%-3d %-4d %s\n", order, size, e.what());
    }
  }
  return rows;
}

// Complex beside real tensors of the same shape (10 sweeps, planted; the real runs with the round
// robin, float32 also with its default schedule): the cost of the complex arithmetic and of twice
// the bytes. complex64's fraction of the copy bandwidth counts its passes' read + write bytes.
// The complex group_pass alone at register bits 3..5 and blocks of 128..512 threads (the plan caps
// the bits at 2^R entries of 256 bytes: 5 for complex64, 4 for complex128), as a fraction of the
// copy bandwidth.
nlohmann::json complex_pass_sweep(double copy_bw) {
  nlohmann::json rows = nlohmann::json::array();
  std::printf("complex group_pass alone, fraction of copy bandwidth (register bits x block size):\n");
  for (auto [order, size] : {std::pair{9, 8}, {7, 8}, {3, 128}, {3, 256}, {6, 16}, {4, 64}})
    for (const char* dtype : {"complex64", "complex128"}) {
      std::printf("%-3d %-4d %-10s", order, size, dtype);
      for (int bits : {3, 4, 5})
        for (int block : {128, 256, 512}) {
          codegen::Tuning t;
          t.pass_register_bits = bits;
          t.pass_block_size = block;
          try {
            const double b = std::string(dtype) == "complex64" ? group_pass_bandwidth<std::complex<float>>(order, size, t)
                                                               : group_pass_bandwidth<std::complex<double>>(order, size, t);
            std::printf(" %d/%d:%.2f", bits, block, b / copy_bw);
            rows.push_back({{"order", order}, {"size", size}, {"dtype", dtype}, {"register_bits", bits},
                            {"block_size", block}, {"fraction_of_copy_bandwidth", b / copy_bw}});
          } catch (const std::exception& e) {
            std::printf(" %d/%d:-", bits, block);
          }
        }
      std::printf("\n");
    }
  return rows;
}

template <class Selected>
nlohmann::json complex_table(int repeats, double copy_bw, const Selected& selected) {
  std::printf("complex beside real tensors (planted, 10 sweeps; real runs with the round robin):\n"
              "%-3s %-4s %-10s %-10s %-10s %-9s %-8s %-10s %-10s %-9s %-9s %s\n", "D", "N", "f32_ms", "f32_rr_ms", "c64_ms",
              "c64/f32rr", "c64/f32", "f64_rr_ms", "c128_ms", "c128/f64", "c64_copy", "f32_schedule");
  nlohmann::json rows = nlohmann::json::array();
  for (auto [order, size] : {std::pair{3, 8}, {5, 8}, {7, 8}, {8, 8}, {9, 8}, {3, 32}, {3, 128}, {3, 256}, {6, 16},
                             {4, 64}, {12, 2}, {10, 4}}) {
    if (!selected(order, size)) continue;
    GeneratorOptions g;
    g.order = order;
    g.size = size;
    g.seed = 2026;
    Options round_robin;
    round_robin.schedule = SweepSchedule::round_robin;
    try {
      const auto f32 = generate_diagonalizable<float>(g).tensor;
      const auto [f32_t, f32_run] = ten_sweeps(f32, Options{}, repeats);
      const auto [f32_rr_t, f32_rr] = ten_sweeps(f32, round_robin, repeats);
      const auto c64 = generate_complex_diagonalizable<float>(g).tensor;
      const auto [c64_t, c64_run] = ten_sweeps(c64, Options{}, repeats);
      const auto f64 = generate_diagonalizable<double>(g).tensor;
      const auto [f64_t, f64_run] = ten_sweeps(f64, round_robin, repeats);
      const auto c128 = generate_complex_diagonalizable<double>(g).tensor;
      const auto [c128_t, c128_run] = ten_sweeps(c128, Options{}, repeats);
      const double c64_bytes = 10.0 * c64_run.passes_per_sweep * 2 * static_cast<double>(c64.count()) * 8;
      std::printf("%-3d %-4d %-10.4f %-10.4f %-10.4f %-9.2f %-8.2f %-10.4f %-10.4f %-9.2f %-9.2f %s\n", order, size,
                  f32_t * 1e3, f32_rr_t * 1e3, c64_t * 1e3, c64_t / f32_rr_t, c64_t / f32_t, f64_t * 1e3, c128_t * 1e3,
                  c128_t / f64_t, c64_bytes / c64_t / copy_bw, f32_run.schedule.c_str());
      rows.push_back({{"order", order}, {"size", size}, {"float32_seconds_median", f32_t},
                      {"float32_schedule", f32_run.schedule}, {"float32_engine", f32_run.engine},
                      {"float32_round_robin_seconds_median", f32_rr_t}, {"complex64_seconds_median", c64_t},
                      {"complex64_engine", c64_run.engine}, {"complex64_kernels", c64_run.kernels},
                      {"complex64_final_off_rel", c64_run.history.back().off_rel},
                      {"complex64_fraction_of_copy_bandwidth", c64_bytes / c64_t / copy_bw},
                      {"float64_round_robin_seconds_median", f64_t}, {"complex128_seconds_median", c128_t},
                      {"complex128_final_off_rel", c128_run.history.back().off_rel}});
    } catch (const std::exception& e) {
      std::printf("%-3d %-4d %s\n", order, size, e.what());
    }
  }
  return rows;
}

// --dtypes: the dtypes the tables below run (",float32,complex64,"; empty: all of them).
std::string dtypes_asked;
bool dtype_selected(const char* dtype) {
  return dtypes_asked.empty() || dtypes_asked.find("," + std::string(dtype) + ",") != std::string::npos;
}

// Calls row(dtype, tensor) with planted tensors of the shape and structure (seed 2026): general in
// float32, float64, complex64 and complex128; symmetric in float32 and float64 (a complex symmetric
// tensor has no subspace passes from order 4: its steps are the host's, gpu_engine.cpp); of these
// the dtypes --dtypes names.
template <class Row>
void for_each_dtype(int order, int size, Structure structure, Row&& row) {
  GeneratorOptions g;
  g.order = order;
  g.size = size;
  g.seed = 2026;
  g.structure = structure;
  if (dtype_selected("float32")) row("float32", generate_diagonalizable<float>(g).tensor);
  if (dtype_selected("float64")) row("float64", generate_diagonalizable<double>(g).tensor);
  if (structure != Structure::general) return;
  if (dtype_selected("complex64")) row("complex64", generate_complex_diagonalizable<float>(g).tensor);
  if (dtype_selected("complex128")) row("complex128", generate_complex_diagonalizable<double>(g).tensor);
}

// One setting of a table below: an environment variable's value (empty: unset), the schedule and
// the structure the run asks for.
struct Variant {
  std::string value;
  SweepSchedule schedule;
  Structure structure = Structure::general;
};

// The median GPU time of 10 sweeps of `tensor` under each variant of `variable`, printed after the
// row's head; "refused" where the run throws (its message on stderr and in the row). Returns
// {schedule/value: seconds or the message}.
template <class T>
nlohmann::json variant_row(const char* head, const HostTensor<T>& tensor, const char* variable,
                           const std::vector<Variant>& variants, int repeats) {
  std::printf("%s", head);
  nlohmann::json times = nlohmann::json::object();
  for (const Variant& v : variants) {
    if (v.value.empty()) unsetenv(variable);
    else setenv(variable, v.value.c_str(), 1);
    Options options;
    options.schedule = v.schedule;
    options.structure = v.structure;
    const std::string key = std::string(to_string(v.schedule)) + "/" + v.value;
    try {
      const auto [t, run] = ten_sweeps(tensor, options, repeats);
      std::printf(" %-9.4f", t * 1e3);
      times[key] = t;
    } catch (const std::exception& e) {
      std::printf(" %-9s", "refused");
      std::fprintf(stderr, "gpu_bench: %s %s: %s\n", head, key.c_str(), e.what());
      times[key] = e.what();
    }
  }
  unsetenv(variable);
  std::printf("\n");
  return times;
}

// variant_row for each selected shape of `shapes` in each dtype, the times under `key` in each row.
template <class Selected>
nlohmann::json variant_rows(const std::vector<std::pair<int, int>>& shapes, const Selected& selected,
                            const char* variable, const std::vector<Variant>& variants, int repeats, const char* key) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& [order, size] : shapes) {
    if (!selected(order, size)) continue;
    for_each_dtype(order, size, variants.front().structure, [&](const char* dtype, const auto& tensor) {
      char head[64];
      std::snprintf(head, sizeof head, "%-3d %-4d %-11s", order, size, dtype);
      rows.push_back({{"order", order}, {"size", size}, {"dtype", dtype},
                      {key, variant_row(head, tensor, variable, variants, repeats)}});
    });
  }
  return rows;
}

// variant_rows under the values of one environment variable ("": unset, the engine's or plan's
// choice, headed '-'), each with `schedule` and `structure`, after the table's title and heads.
template <class Selected>
nlohmann::json setting_table(const std::string& title, const char* variable, const std::vector<std::string>& values,
                             SweepSchedule schedule, Structure structure, const std::vector<std::pair<int, int>>& shapes,
                             const Selected& selected, int repeats) {
  std::printf("%s:\n%-3s %-4s %-11s", title.c_str(), "D", "N", "dtype");
  std::vector<Variant> variants;
  for (const std::string& value : values) {
    variants.push_back({value, schedule, structure});
    std::printf(" %-9s", value.empty() ? "-" : value.c_str());
  }
  std::printf("\n");
  return variant_rows(shapes, selected, variable, variants, repeats, "seconds_median");
}

// The round robin at each group_pass block size (TENSORDIAG_PASS_BLOCK_SIZE; 0: the plan's), float32,
// float64, complex64 and complex128, 10 sweeps: where the plan's blocks of 256-512 threads leave a
// small tensor's pass on a few multiprocessors.
template <class Selected>
nlohmann::json pass_block_table(int repeats, const Selected& selected) {
  std::printf("group_pass block size (round robin, 10 sweeps, ms; block 0: the plan's):\n%-3s %-4s %-11s", "D", "N", "dtype");
  std::vector<Variant> variants;
  for (const int b : {0, 32, 64, 128, 256, 512}) {
    variants.push_back({std::to_string(b), SweepSchedule::round_robin});
    std::printf(" %-9d", b);
  }
  std::printf("\n");
  return variant_rows({{5, 8}, {6, 8}, {7, 8}, {8, 8}, {4, 12}, {5, 12}, {6, 6}, {7, 6}, {8, 4}, {9, 4}, {10, 4}, {4, 16},
                       {5, 16}, {5, 10}, {4, 14}},
                      selected, "TENSORDIAG_PASS_BLOCK_SIZE", variants, repeats, "seconds_median_by_block");
}

// The round robin's pass, group_pass against chunk_pass (TENSORDIAG_CHUNKED_PASS 0 and 1; '-': the
// engine's choice), float32, float64, complex64 and complex128, 10 sweeps: the large orders at N = 2,
// 4, 6 and 8, where group_pass's tile takes up to 1024 threads and its registers may spill (float32
// and complex64 at N = 2 run on the qubit path).
template <class Selected>
nlohmann::json chunked_pass_table(int repeats, const Selected& selected) {
  return setting_table("group_pass (0) against chunk_pass (1) (round robin, 10 sweeps, ms; '-': the engine's)",
                       "TENSORDIAG_CHUNKED_PASS", {"", "0", "1"}, SweepSchedule::round_robin, Structure::general,
                       {{8, 8}, {9, 8}, {9, 6}, {10, 6}, {11, 4}, {12, 4}, {13, 4}, {14, 4}, {14, 2}, {15, 2}}, selected,
                       repeats);
}

// The round robin at group_pass's register bits (TENSORDIAG_PASS_REGISTER_BITS 4 and 5; '-': the
// plan's, 3 for complex dtypes, 5 or 6 for real ones), every dtype, 10 sweeps, at the tensors of
// 2^26 entries and more where six bits paid for float32; TENSORDIAG_PASS_MAX_REGISTERS set outside
// applies to every run.
template <class Selected>
nlohmann::json pass_bits_table(int repeats, const Selected& selected) {
  return setting_table("group_pass register bits (round robin, 10 sweeps, ms; '-': the plan's)",
                       "TENSORDIAG_PASS_REGISTER_BITS", {"", "4", "5"}, SweepSchedule::round_robin, Structure::general,
                       {{9, 8}, {13, 4}, {10, 6}}, selected, repeats);
}

// The round robin with the passes' mixing by fused multiply-adds and without (TENSORDIAG_PASS_FMA
// 1 and 0; '-': the plan's), every dtype, 10 sweeps, from the mid-size tensors to the large ones
// whose passes are bound by their instructions (group_pass; chunk_pass where group_pass refuses the
// tile, as at 14 x 4 and at complex128 13 x 4); TENSORDIAG_PASS_MAX_REGISTERS set outside applies
// to every run.
template <class Selected>
nlohmann::json pass_fma_table(int repeats, const Selected& selected) {
  return setting_table("the passes' mixing by fused multiply-adds (round robin, 10 sweeps, ms; '-': the plan's)",
                       "TENSORDIAG_PASS_FMA", {"", "0", "1"}, SweepSchedule::round_robin, Structure::general,
                       {{6, 8}, {7, 8}, {8, 8}, {9, 8}, {9, 6}, {10, 6}, {10, 4}, {11, 4}, {12, 4}, {13, 4}, {14, 4}},
                       selected, repeats);
}

// --variant "NAME=VALUE NAME=VALUE .." (repeatable): the round robin under each variant, a set of
// environment variables (the tuning variables; '-' alone: none, the plans' choices), at the --only
// shapes, every selected dtype, 10 sweeps, each tensor made once: a column a variant, a row a shape
// and dtype. Variables set outside apply to every run unless a variant sets them. For the tuning
// choices that have no table of their own, and for their combinations.
using Assignments = std::vector<std::pair<std::string, std::string>>;

Assignments parse_variant(const std::string& text) {
  Assignments assignments;
  std::size_t from = 0;
  while ((from = text.find_first_not_of(' ', from)) != std::string::npos) {
    const auto end = std::min(text.find(' ', from), text.size());
    const std::string word = text.substr(from, end - from);
    from = end;
    if (word == "-") continue;
    const auto equals = word.find('=');
    if (equals == std::string::npos || equals == 0)
      throw std::invalid_argument("--variant wants \"NAME=VALUE ..\" (or '-'), got '" + text + "'");
    assignments.emplace_back(word.substr(0, equals), word.substr(equals + 1));
  }
  return assignments;
}

std::vector<std::pair<int, int>> parse_shapes(const std::string& only) {
  std::vector<std::pair<int, int>> shapes;
  for (std::size_t from = 1; from < only.size();) {
    const auto comma = only.find(',', from);
    const std::string shape = only.substr(from, comma - from);
    int order = 0, size = 0;
    if (std::sscanf(shape.c_str(), "%dx%d", &order, &size) != 2 || order < 1 || size < 1)
      throw std::invalid_argument("--only wants DxN,.. shapes, got '" + shape + "'");
    shapes.emplace_back(order, size);
    from = comma + 1;
  }
  if (shapes.empty()) throw std::invalid_argument("--variant needs --only DxN,.. (the shapes to run)");
  return shapes;
}

// `variants` parsed from `texts` (parse_variant), at `shapes` (parse_shapes).
nlohmann::json variants_table(const std::vector<std::string>& texts, const std::vector<Assignments>& variants,
                              const std::vector<std::pair<int, int>>& shapes, int repeats) {
  // What the process had, restored after each variant.
  std::vector<std::pair<std::string, std::optional<std::string>>> outside;
  for (const auto& variant : variants)
    for (const auto& [name, value] : variant)
      if (const char* had = std::getenv(name.c_str())) outside.emplace_back(name, std::string(had));
      else outside.emplace_back(name, std::nullopt);
  std::printf("round robin, 10 sweeps, ms, under each variant:\n");
  for (std::size_t v = 0; v < texts.size(); ++v) std::printf("  v%zu: %s\n", v, texts[v].c_str());
  std::printf("%-3s %-4s %-11s", "D", "N", "dtype");
  for (std::size_t v = 0; v < texts.size(); ++v) std::printf(" v%-8zu", v);
  std::printf("\n");
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& [order, size] : shapes)
    for_each_dtype(order, size, Structure::general, [&](const char* dtype, const auto& tensor) {
      std::printf("%-3d %-4d %-11s", order, size, dtype);
      nlohmann::json times = nlohmann::json::object();
      for (std::size_t v = 0; v < variants.size(); ++v) {
        for (const auto& [name, value] : variants[v]) setenv(name.c_str(), value.c_str(), 1);
        Options options;
        options.schedule = SweepSchedule::round_robin;
        try {
          const auto [t, run] = ten_sweeps(tensor, options, repeats);
          std::printf(" %-9.4f", t * 1e3);
          times[texts[v]] = t;
        } catch (const std::exception& e) {
          std::printf(" %-9s", "refused");
          std::fprintf(stderr, "gpu_bench: %dx%d %s '%s': %s\n", order, size, dtype, texts[v].c_str(), e.what());
          times[texts[v]] = e.what();
        }
        for (const auto& [name, had] : outside)
          if (had) setenv(name.c_str(), had->c_str(), 1);
          else unsetenv(name.c_str());
      }
      std::printf("\n");
      rows.push_back({{"order", order}, {"size", size}, {"dtype", dtype}, {"seconds_median", times}});
    });
  return rows;
}

// auto's schedule choice in every dtype: the round robin against the XOR passes with cells of 4
// (auto's cells above order 3; TENSORDIAG_SUBSPACE_BITS=2) and of 8, 10 sweeps. Structure general:
// two shapes of order 3 (auto's cells of 8 in every dtype) and the shapes of orders 4 to 6 that
// auto's order-4 rule was read from (bench/results/xor_rule_h200_2026-11-28.md); structure symmetric
// (planted symmetric tensors, float32 and float64): the powers of two of gpu_bench --symmetric's
// orders.
template <class Selected>
nlohmann::json schedule_dtype_table(int repeats, const Selected& selected, Structure structure) {
  std::printf("round robin against the XOR passes (structure %s, 10 sweeps, ms):\n%-3s %-4s %-11s %-9s %-9s %-9s\n",
              structure == Structure::symmetric ? "symmetric" : "general", "D", "N", "dtype", "rr", "xor/4", "xor/8");
  const std::vector<Variant> variants{{"", SweepSchedule::round_robin, structure},
                                      {"2", SweepSchedule::xor_subspaces, structure},
                                      {"3", SweepSchedule::xor_subspaces, structure}};
  if (structure == Structure::symmetric)
    return variant_rows({{3, 16}, {3, 32}, {3, 64}, {3, 128}, {4, 8}, {4, 16}, {4, 32}, {4, 64}, {5, 8}, {5, 16}, {5, 32},
                         {6, 8}, {6, 16}, {7, 8}},
                        selected, "TENSORDIAG_SUBSPACE_BITS", variants, repeats, "seconds_median");
  return variant_rows({{3, 64}, {3, 128}, {4, 8}, {5, 8}, {6, 8}, {4, 32}}, selected, "TENSORDIAG_SUBSPACE_BITS", variants,
                      repeats, "seconds_median");
}

// Structure symmetric's XOR passes under auto (its cells) with subspace_apply's tiles mirrored and
// not (TENSORDIAG_SUBSPACE_MIRRORED 1 and 0; '-': the plan's choice), planted symmetric float32 and
// float64 tensors, 10 sweeps.
template <class Selected>
nlohmann::json mirrored_table(int repeats, const Selected& selected) {
  return setting_table(
      "symmetric subspace_apply, tiles mirrored (1) or not (0) (auto's XOR passes, 10 sweeps, ms; '-': the plan's)",
      "TENSORDIAG_SUBSPACE_MIRRORED", {"", "0", "1"}, SweepSchedule::automatic, Structure::symmetric,
      {{3, 32}, {3, 64}, {3, 128}, {3, 256}, {4, 8}, {4, 16}, {4, 32}, {4, 64}, {5, 8}, {5, 16}, {5, 32}, {6, 16}}, selected,
      repeats);
}

// subspace_apply with its outer modes fused to the store and load (TENSORDIAG_SUBSPACE_FUSED 0, 1
// and 2; '-': the plan's choice), auto's XOR passes (its cells), 10 sweeps: structure general in
// every dtype, or (with --symmetric) planted symmetric float32 and float64 tensors, where the tiles
// are not mirrored (mirrored tiles are never fused).
template <class Selected>
nlohmann::json fused_table(int repeats, const Selected& selected, Structure structure) {
  const bool symmetric = structure == Structure::symmetric;
  const std::string title = std::string("subspace_apply's outer modes fused with the store (1) and the load (2) or not (0) "
                                        "(structure ") +
                            (symmetric ? "symmetric" : "general") + ", auto's XOR passes, 10 sweeps, ms; '-': the plan's)";
  if (symmetric)
    return setting_table(title, "TENSORDIAG_SUBSPACE_FUSED", {"", "0", "1", "2"}, SweepSchedule::automatic, structure,
                         {{3, 32}, {3, 64}, {3, 128}, {4, 16}, {4, 32}, {5, 16}, {6, 16}}, selected, repeats);
  return setting_table(title, "TENSORDIAG_SUBSPACE_FUSED", {"", "0", "1", "2"}, SweepSchedule::automatic, structure,
                       {{3, 32}, {3, 64}, {3, 128}, {3, 256}, {4, 16}, {4, 32}, {4, 64}, {5, 16}, {5, 32}, {6, 16}},
                       selected, repeats);
}

}  // namespace

// End to end: the call to result in host memory, warm kernel cache, float32, D = 3, 10 sweeps,
// N = 8, 16, 32; medians of max(repeats, 5) calls, with report.json's timings beside.
nlohmann::json end_to_end_table(int repeats) {
  std::printf("\nend to end (call to result in host memory, warm kernel cache, float32, D = 3, 10 sweeps):\n");
  const double paper_e2e[] = {0.36, 0.37, 0.39};
  nlohmann::json e2e = nlohmann::json::array();
  int k = 0;
  for (int size : {8, 16, 32}) {
    GeneratorOptions g;
    g.order = 3;
    g.size = size;
    g.seed = 7;
    const auto tensor = generate_diagonalizable<float>(g).tensor;
    const Options options = ten_sweeps_on_gpu({});
    diagonalize(tensor, options);
    // The call's wall time, and where report.json's timings put it (medians of each).
    std::vector<double> times, setup, compile, sweeps, total;
    for (int r = 0; r < std::max(repeats, 5); ++r) {
      Result<float> result;
      times.push_back(wall_seconds([&] { result = diagonalize(tensor, options); }));
      setup.push_back(result.timings.setup_seconds);
      compile.push_back(result.timings.compile_seconds);
      sweeps.push_back(result.timings.sweeps_seconds);
      total.push_back(result.timings.total_seconds);
    }
    std::printf("  N=%-3d %.2f ms   [paper %.0f ms]   (setup %.2f, of it kernels %.2f, sweeps %.2f, total %.2f ms)\n", size,
                median(times) * 1e3, paper_e2e[k] * 1e3, median(setup) * 1e3, median(compile) * 1e3,
                median(sweeps) * 1e3, median(total) * 1e3);
    e2e.push_back({{"size", size}, {"seconds_median", median(times)}, {"paper_seconds", paper_e2e[k++]},
                   {"setup_seconds_median", median(setup)}, {"compile_seconds_median", median(compile)},
                   {"sweeps_seconds_median", median(sweeps)}, {"total_seconds_median", median(total)}});
  }

  return e2e;
}

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // a run cut short still shows its lines
  std::string out_path;
  int repeats = 5;
  bool quick = false;
  bool no_eta = false;
  std::string only;  // ",3x128,9x8,": the shapes to run, empty for all
  bool sweep_tuning = false;  // --sweep: also try group_pass register bits and block sizes
  bool compare_schedules = false;  // --schedules: every schedule and cell size, not only the default
  bool symmetric_only = false;  // --symmetric: the structure-symmetric table alone
  bool complex_only = false;    // --complex: the complex table alone
  bool skew_only = false;       // --skew: the structure-skew table alone
  bool end_to_end_only = false; // --end-to-end: the end-to-end table alone
  bool one_block_only = false;  // --one-block: the one-block engine against the general one
  bool pass_blocks_only = false;  // --pass-blocks: the round robin at each group_pass block size
  bool schedule_dtypes_only = false;  // --schedule-dtypes: the round robin against the XOR passes, every dtype
  bool mirrored_only = false;  // --mirrored: symmetric subspace_apply's tiles mirrored and not
  bool fused_only = false;     // --fused: subspace_apply's outer modes fused with the load and store or not
  bool chunked_only = false;   // --chunked: group_pass against chunk_pass at large orders, every dtype
  bool pass_bits_only = false; // --pass-bits: group_pass's register bits at large tensors, every dtype
  bool pass_fma_only = false;  // --pass-fma: group_pass's mixing by fused multiply-adds or not, every dtype
  std::vector<std::string> variant_texts;  // --variant "NAME=V ..": the round robin under each of these
  double budget = 1e9;  // seconds for the eta > 0 table; cases past it are skipped, and said so
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--repeats") == 0 && i + 1 < argc) repeats = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--budget") == 0 && i + 1 < argc) budget = std::atof(argv[++i]);
    else if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    else if (std::strcmp(argv[i], "--no-eta") == 0) no_eta = true;
    else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = "," + std::string(argv[++i]) + ",";
    else if (std::strcmp(argv[i], "--dtypes") == 0 && i + 1 < argc) dtypes_asked = "," + std::string(argv[++i]) + ",";
    else if (std::strcmp(argv[i], "--sweep") == 0) sweep_tuning = true;
    else if (std::strcmp(argv[i], "--schedules") == 0) compare_schedules = true;
    else if (std::strcmp(argv[i], "--symmetric") == 0) symmetric_only = true;
    else if (std::strcmp(argv[i], "--complex") == 0) complex_only = true;
    else if (std::strcmp(argv[i], "--skew") == 0) skew_only = true;
    else if (std::strcmp(argv[i], "--end-to-end") == 0) end_to_end_only = true;
    else if (std::strcmp(argv[i], "--one-block") == 0) one_block_only = true;
    else if (std::strcmp(argv[i], "--pass-blocks") == 0) pass_blocks_only = true;
    else if (std::strcmp(argv[i], "--schedule-dtypes") == 0) schedule_dtypes_only = true;
    else if (std::strcmp(argv[i], "--mirrored") == 0) mirrored_only = true;
    else if (std::strcmp(argv[i], "--fused") == 0) fused_only = true;
    else if (std::strcmp(argv[i], "--chunked") == 0) chunked_only = true;
    else if (std::strcmp(argv[i], "--pass-bits") == 0) pass_bits_only = true;
    else if (std::strcmp(argv[i], "--pass-fma") == 0) pass_fma_only = true;
    else if (std::strcmp(argv[i], "--variant") == 0 && i + 1 < argc) variant_texts.push_back(argv[++i]);
    else if (argv[i][0] == '-') {
      std::fprintf(stderr, "usage: gpu_bench [OUT.json] [--repeats K] [--quick] [--no-eta] [--only DxN,..] [--dtypes T,..] "
                           "[--budget SECONDS] [--sweep] [--schedules] [--symmetric] [--skew] [--complex] [--end-to-end] [--one-block] "
                           "[--pass-blocks] [--schedule-dtypes] [--mirrored] [--fused] [--chunked] [--pass-bits] [--pass-fma] "
                           "[--variant \"NAME=V ..\"]..\n");
      return 2;
    } else out_path = argv[i];
  }
  // --variant's text and shapes, checked before the device is asked for.
  std::vector<Assignments> variant_assignments;
  std::vector<std::pair<int, int>> variant_shapes;
  if (!variant_texts.empty()) {
    try {
      for (const std::string& text : variant_texts) variant_assignments.push_back(parse_variant(text));
      variant_shapes = parse_shapes(only);
    } catch (const std::invalid_argument& e) {
      std::fprintf(stderr, "gpu_bench: %s\n", e.what());
      return 2;
    }
  }
  const auto selected = [&only](int order, int size) {
    return only.empty() || only.find("," + std::to_string(order) + "x" + std::to_string(size) + ",") != std::string::npos;
  };
  const Stopwatch budget_clock;
  const auto device = cuda_device();
  if (!device) {
    std::printf("gpu_bench: %s\n", cuda_unavailable_reason().c_str());
    return 77;
  }
  const double copy_bw = copy_bandwidth();
  std::printf("device: %s (%s, %d SMs); device-to-device copy %.0f GB/s (read + write)\n", device->name.c_str(),
              device->arch().c_str(), device->multiprocessors, copy_bw / 1e9);
  if (!variant_texts.empty()) {
    const nlohmann::json rows = variants_table(variant_texts, variant_assignments, variant_shapes, repeats);
    if (!out_path.empty())
      std::ofstream(out_path) << nlohmann::json{{"device", device->name}, {"variants", rows}}.dump(2) << "\n";
    return 0;
  }
  if (one_block_only) {
    const nlohmann::json rows = one_block_table(repeats, Structure::general, 256);
    if (!out_path.empty())
      std::ofstream(out_path) << nlohmann::json{{"device", device->name}, {"one_block", rows}}.dump(2) << "\n";
    return 0;
  }
  if (pass_blocks_only || schedule_dtypes_only || mirrored_only || fused_only || chunked_only || pass_bits_only ||
      pass_fma_only) {
    const char* table = pass_blocks_only ? "pass_blocks"
                        : mirrored_only  ? "mirrored"
                        : fused_only     ? "fused"
                        : chunked_only   ? "chunked"
                        : pass_bits_only ? "pass_bits"
                        : pass_fma_only  ? "pass_fma"
                                         : "schedule_dtypes";
    const Structure structure = symmetric_only ? Structure::symmetric : Structure::general;
    const nlohmann::json rows =
        pass_blocks_only    ? pass_block_table(repeats, selected)
        : mirrored_only     ? mirrored_table(repeats, selected)
        : fused_only        ? fused_table(repeats, selected, structure)
        : chunked_only      ? chunked_pass_table(repeats, selected)
        : pass_bits_only    ? pass_bits_table(repeats, selected)
        : pass_fma_only     ? pass_fma_table(repeats, selected)
                            : schedule_dtype_table(repeats, selected, structure);
    if (!out_path.empty())
      std::ofstream(out_path) << nlohmann::json{{"device", device->name}, {table, rows}}.dump(2) << "\n";
    return 0;
  }
  if (end_to_end_only) {
    const nlohmann::json e2e = end_to_end_table(repeats);
    if (!out_path.empty())
      std::ofstream(out_path) << nlohmann::json{{"device", device->name}, {"end_to_end", e2e}}.dump(2) << "\n";
    return 0;
  }
  if (symmetric_only || skew_only || complex_only) {
    const char* table = symmetric_only ? "symmetric" : skew_only ? "skew" : "complex";
    const nlohmann::json sweep_rows = complex_only && sweep_tuning ? complex_pass_sweep(copy_bw) : nlohmann::json();
    const nlohmann::json rows = symmetric_only ? symmetric_table(repeats, copy_bw)
                                : skew_only    ? skew_table(repeats, copy_bw)
                                               : complex_table(repeats, copy_bw, selected);
    const nlohmann::json one_block_rows = skew_only ? one_block_table(repeats, Structure::skew, 1) : nlohmann::json();
    if (!out_path.empty())
      std::ofstream(out_path) << nlohmann::json{{"device", device->name}, {"copy_bandwidth_bytes_per_second", copy_bw},
                                                {table, rows}, {"group_pass_sweep", sweep_rows},
                                                {"skew_one_block", one_block_rows}}
                                     .dump(2)
                              << "\n";
    return 0;
  }
  nlohmann::json results = nlohmann::json::array();
  std::printf("%-3s %-4s %-8s %-6s %-11s %-11s %-9s %-9s %-9s %-10s %-10s %-14s %-6s %s\n", "D", "N", "eta", "sweeps",
              "gpu_ms", "paper_ms", "speedup", "off_rel", "GB_moved", "of_copy", "load_s", "schedule", "passes", "engine");
  for (const auto& c : cases) {
    if (c.eta > 0 && (no_eta || (quick && std::pow(c.size, c.order) > 1e6))) continue;
    if (!selected(c.order, c.size)) continue;
    if (budget_clock.seconds() > budget) {
      std::printf("%-3d %-4d %-8g skipped: past the --budget of %.0f s\n", c.order, c.size, c.eta, budget);
      continue;
    }
    GeneratorOptions g;
    g.order = c.order;
    g.size = c.size;
    g.seed = 2026;
    const auto tensor = generate_diagonalizable<float>(g).tensor;
    // The default, then (--schedules, eta = 0) the round robin and the XOR passes at each cell size.
    std::vector<std::pair<SweepSchedule, int>> variants{{SweepSchedule::automatic, 0}};
    if (compare_schedules && c.eta == 0) {
      variants.push_back({SweepSchedule::round_robin, 0});
      for (int bits = 2; (1 << bits) <= c.size; ++bits) variants.push_back({SweepSchedule::xor_subspaces, bits});
    }
    for (const auto& [schedule, bits] : variants) {
      if (bits > 0) setenv("TENSORDIAG_SUBSPACE_BITS", std::to_string(bits).c_str(), 1);
      else unsetenv("TENSORDIAG_SUBSPACE_BITS");
      Options options = ten_sweeps_on_gpu({});
      options.eta = c.eta;
      options.schedule = schedule;
      Result<float> first;
      try {
        first = diagonalize(tensor, options);  // warm-up: compiles or loads the kernels
      } catch (const std::exception& e) {
        std::printf("%-3d %-4d %-8g %s (cell bits %d): %s\n", c.order, c.size, c.eta, std::string(to_string(schedule)).c_str(),
                    bits, e.what());
        continue;
      }
      if (bits > 0 && first.passes_per_sweep == c.size - 1) continue;  // the cells did not fit: group passes
      std::vector<double> gpu_times;
      Result<float> result;
      const int runs = c.eta > 0 && c.size >= 64 ? std::min(repeats, 3) : repeats;
      for (int r = 0; r < runs; ++r) {
        result = diagonalize(tensor, options);
        gpu_times.push_back(sweeps_seconds(result.history));
      }
      const double t = median(gpu_times);
      // A pass reads and writes the tensor once (the XOR passes also read it once a sweep for the figures).
      const double bytes = 10 * result.passes_per_sweep * 2 * static_cast<double>(tensor.count()) * sizeof(float);
      const std::string schedule_name = result.schedule + (bits > 0 ? "/" + std::to_string(bits) : "");
      std::printf("%-3d %-4d %-8g %-6d %-11.4f %-11.3f %-9.1f %-9.1e %-9.2f %-10.2f %-10.3f %-14s %-6d %s\n", c.order, c.size,
                  c.eta, result.sweeps(), t * 1e3, c.paper_cuda_seconds * 1e3,
                  c.paper_cuda_seconds > 0 ? c.paper_cuda_seconds / t : 0.0, result.history.back().off_rel, bytes / 1e9,
                  bytes / t / copy_bw, first.timings.compile_seconds, schedule_name.c_str(), result.passes_per_sweep,
                  result.engine.c_str());
      results.push_back({{"order", c.order}, {"size", c.size}, {"eta", c.eta}, {"dtype", "float32"},
                         {"engine", result.engine}, {"schedule", result.schedule}, {"subspace_bits", bits},
                         {"schedule_asked", std::string(to_string(schedule))}, {"passes_per_sweep", result.passes_per_sweep},
                         {"sweeps", result.sweeps()}, {"gpu_seconds_median", t}, {"gpu_seconds_all", gpu_times},
                         {"paper_cuda_seconds", c.paper_cuda_seconds}, {"bytes_moved_passes", bytes},
                         {"fraction_of_copy_bandwidth", bytes / t / copy_bw}, {"final_off_rel", result.history.back().off_rel},
                         {"first_call_kernel_load_seconds", first.timings.compile_seconds},
                         {"warm_kernel_load_seconds", result.timings.compile_seconds}});
    }
    unsetenv("TENSORDIAG_SUBSPACE_BITS");
  }

  std::printf("\ngroup pass alone (median launch, the groups of a sweep in turn, float32; default tuning, then the best of the register-bits/block sweep):\n"
              "%-3s %-4s %-8s %-9s %-9s %-9s %-9s %-9s\n", "D", "N", "MB", "GB/s", "of_copy", "best_GB/s", "reg_bits", "block");
  nlohmann::json passes = nlohmann::json::array();
  for (auto [order, size] : {std::pair{3, 256}, {3, 512}, {4, 64}, {4, 128}, {9, 8}, {8, 8}, {5, 32}, {6, 16}, {12, 4}, {10, 4}}) {
    if (!selected(order, size)) continue;
    const codegen::Tuning defaults;
    double bw = 0.0;
    try {
      bw = group_pass_bandwidth(order, size, defaults);
    } catch (const std::exception& e) {
      std::printf("%-3d %-4d %s\n", order, size, e.what());
      continue;
    }
    double best = bw;
    codegen::Tuning best_tuning = defaults;
    nlohmann::json sweep = nlohmann::json::array();
    for (int bits : sweep_tuning ? std::vector<int>{3, 4, 5, 6} : std::vector<int>{})
      for (int block : {128, 256, 512, 1024}) {
        codegen::Tuning t;
        t.pass_register_bits = bits;
        t.pass_block_size = block;
        try {
          const double b = group_pass_bandwidth(order, size, t);
          sweep.push_back({{"register_bits", bits}, {"block_size", block}, {"bytes_per_second", b}});
          if (b > best) best = b, best_tuning = t;
        } catch (const std::exception& e) {
          sweep.push_back({{"register_bits", bits}, {"block_size", block}, {"error", e.what()}});
        }
      }
    const double mb = std::pow(size, order) * 4 / 1e6;
    std::printf("%-3d %-4d %-8.1f %-9.0f %-9.2f %-9.0f %-9d %-9d\n", order, size, mb, bw / 1e9, bw / copy_bw, best / 1e9,
                best_tuning.pass_register_bits, best_tuning.pass_block_size);
    passes.push_back({{"order", order}, {"size", size}, {"megabytes", mb}, {"bytes_per_second", bw},
                      {"fraction_of_copy_bandwidth", bw / copy_bw}, {"best_bytes_per_second", best},
                      {"best_fraction_of_copy_bandwidth", best / copy_bw}, {"tuning_sweep", sweep}});
  }

  const nlohmann::json e2e = only.empty() ? end_to_end_table(repeats) : nlohmann::json::array();

  if (!out_path.empty()) {
    std::ofstream out(out_path);
    out << nlohmann::json{{"device", device->name}, {"copy_bandwidth_bytes_per_second", copy_bw},
                          {"results", results}, {"group_pass", passes}, {"end_to_end", e2e}}
               .dump(2)
        << "\n";
  }
  return 0;
}
