// Compile time of every kernel kind of a shape, against the targets: a cold NVRTC compile of
// all kernels of one shape under 1 s, a warm cache hit under 5 ms per kernel. For each shape:
//   codegen     every_kind_source: all sources generated
//   cold        a cache without its disk layer: NVRTC compiles each kind, one after the other (the
//               sum) and all kinds at once on --threads threads (the wall time)
//   disk hit    a new KernelCache on a filled directory, as a new process sees it
//   memory hit  a repeat request to the cache that compiled it
// The first NVRTC compile of a process also loads NVRTC's builtins; it is reported on its own and
// kept out of the medians (a warm-up request precedes the timed ones).
//
//   kernel_compile_bench [--shape DxN ...] [--dtype T] [--layout L] [--rule R] [--arch sm_XX]
//                        [--repeats K] [--threads T] [--json OUT.json]
// Defaults: shapes 3x64 and 9x8, float32, C, max_diag, the device's architecture else sm_90, 5
// repeats, one thread per hardware thread.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <exception>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "bench/compile_timing.hpp"
#include "codegen/kernel_source.hpp"
#include "runtime/cuda/device_arch.hpp"
#include "runtime/cuda/kernel_cache.hpp"
#include "runtime/core/stopwatch.hpp"
#include "runtime/cuda/nvrtc_compiler.hpp"

using namespace tensordiag;
using namespace tensordiag::bench;
using runtime::KernelCache;
using runtime::KernelOrigin;

namespace {

struct Settings {
  std::vector<std::string> shapes{"3x64", "9x8"};
  std::string dtype = "float32";
  std::string layout = "C";
  std::string rule = "max_diag";
  std::string arch;
  int repeats = 5;
  int threads = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  std::string json;
};

struct Program {
  std::string kind;
  std::string name;  // codegen::program_name
  std::string source;
  std::size_t cubin_bytes = 0;
  std::vector<double> cold, disk, memory;  // seconds of each repeat's request
};

struct ShapeResult {
  int order = 0;
  int size = 0;
  std::vector<Program> programs;
  std::vector<std::string> left_out;  // why each kind that does not serve the shape refused it
  std::vector<double> codegen, sequential, parallel;  // seconds, per repeat
};

double ms(double seconds) { return 1e3 * seconds; }

double minimum(const std::vector<double>& values) { return *std::min_element(values.begin(), values.end()); }

std::string load_average() {
  std::ifstream file("/proc/loadavg");
  double one = 0, five = 0, fifteen = 0;
  file >> one >> five >> fifteen;
  char text[64];
  std::snprintf(text, sizeof text, "%.2f %.2f %.2f", one, five, fifteen);
  return text;
}

codegen::KernelSpec spec_of(const std::string& shape, const Settings& settings) {
  const std::size_t x = shape.find('x');
  if (x == std::string::npos) throw user_error("--shape " + shape + ": write DxN, e.g. 3x64");
  return codegen::make_kernel_spec("group_pass", std::stoi(shape.substr(0, x)), std::stoi(shape.substr(x + 1)),
                                   settings.dtype, settings.layout, settings.rule);
}

// Every program compiled from scratch on `threads` threads sharing one cache; the wall time.
double compile_in_parallel(std::vector<Program>& programs, const std::string& arch, int threads) {
  KernelCache cache(memory_only());
  std::atomic<std::size_t> next{0};
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(threads));
  const runtime::Stopwatch stopwatch;
  std::vector<std::thread> workers;
  for (std::size_t t = 0; t < errors.size(); ++t)
    workers.emplace_back([&, t] {
      try {
        for (std::size_t i = next++; i < programs.size(); i = next++)
          request(cache, programs[i].source, programs[i].name, arch, KernelOrigin::compiled, "cold, parallel");
      } catch (...) {
        errors[t] = std::current_exception();
      }
    });
  for (std::thread& worker : workers) worker.join();
  const double wall = stopwatch.seconds();
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
  return wall;
}

ShapeResult measure(const codegen::KernelSpec& spec, const Settings& settings, const std::string& arch) {
  ShapeResult result{spec.order, spec.size, {}, {}, {}, {}, {}};
  for (const codegen::KindSource& kind : codegen::every_kind_source(spec)) {
    if (kind.generated())
      result.programs.push_back({std::string(codegen::to_string(kind.spec.kind)), codegen::program_name(kind.spec),
                                 kind.source, 0, {}, {}, {}});
    else
      result.left_out.push_back(kind.refusal);
  }
  for (int r = 0; r < settings.repeats; ++r) {
    runtime::Stopwatch stopwatch;
    codegen::every_kind_source(spec);
    result.codegen.push_back(stopwatch.seconds());

    KernelCache cold(memory_only());
    stopwatch.restart();
    for (Program& program : result.programs)
      program.cold.push_back(
          request(cold, program.source, program.name, arch, KernelOrigin::compiled, "cold").seconds);
    result.sequential.push_back(stopwatch.seconds());
    result.parallel.push_back(compile_in_parallel(result.programs, arch, settings.threads));
  }

  const ScratchCacheDirectory directory;
  KernelCache filled(directory.settings());
  for (Program& program : result.programs)
    program.cubin_bytes =
        request(filled, program.source, program.name, arch, KernelOrigin::compiled, "filling").cubin.size();
  for (int r = 0; r < settings.repeats; ++r) {
    KernelCache fresh(directory.settings());
    for (Program& program : result.programs) {
      program.disk.push_back(
          request(fresh, program.source, program.name, arch, KernelOrigin::disk_cache, "disk hit").seconds);
      program.memory.push_back(
          request(filled, program.source, program.name, arch, KernelOrigin::memory_cache, "memory hit").seconds);
    }
  }
  return result;
}

void print(const ShapeResult& shape, const Settings& settings) {
  std::printf("\nD = %d, N = %d, %s, layout %s, %s: %zu kinds\n", shape.order, shape.size, settings.dtype.c_str(),
              settings.layout.c_str(), settings.rule.c_str(), shape.programs.size());
  for (const std::string& refusal : shape.left_out) std::printf("  left out: %s\n", refusal.c_str());
  std::printf("%-20s %10s %10s %11s %11s %13s %15s\n", "kind", "source B", "cubin B", "cold ms", "cold min ms",
              "disk hit ms", "memory hit ms");
  for (const Program& p : shape.programs)
    std::printf("%-20s %10zu %10zu %11.1f %11.1f %13.3f %15.4f\n", p.kind.c_str(), p.source.size(), p.cubin_bytes,
                ms(median(p.cold)), ms(minimum(p.cold)), ms(median(p.disk)), ms(median(p.memory)));
  std::printf("%-42s %11.1f %11.1f   (medians over %d repeats)\n", "all kinds, one after the other", ms(median(shape.sequential)),
              ms(minimum(shape.sequential)), settings.repeats);
  std::printf("%-42s %11.1f %11.1f\n", ("all kinds, " + std::to_string(settings.threads) + " threads").c_str(),
              ms(median(shape.parallel)), ms(minimum(shape.parallel)));
  std::printf("%-42s %11.2f %11.2f\n", "codegen of every kind", ms(median(shape.codegen)), ms(minimum(shape.codegen)));
  double slowest_disk = 0;
  for (const Program& p : shape.programs) slowest_disk = std::max(slowest_disk, median(p.disk));
  const double cold = median(shape.sequential);
  std::printf("targets: cold < 1000 ms sequential: %s (%.0f ms); disk hit < 5 ms per kernel: %s (slowest %.3f ms)\n",
              cold < 1 ? "met" : "missed", ms(cold), slowest_disk < 5e-3 ? "met" : "missed", ms(slowest_disk));
}

nlohmann::json to_json(const ShapeResult& shape) {
  nlohmann::json programs = nlohmann::json::array();
  for (const Program& p : shape.programs)
    programs.push_back({{"kind", p.kind}, {"program", p.name}, {"source_bytes", p.source.size()},
                        {"cubin_bytes", p.cubin_bytes}, {"cold_seconds", p.cold}, {"disk_hit_seconds", p.disk},
                        {"memory_hit_seconds", p.memory}});
  return {{"order", shape.order},           {"size", shape.size},
          {"left_out", shape.left_out},     {"kinds", programs},
          {"codegen_seconds", shape.codegen}, {"cold_sequential_seconds", shape.sequential},
          {"cold_parallel_seconds", shape.parallel}};
}

}  // namespace

int main(int argc, char** argv) {
  Settings settings;
  CLI::App app("Compile times of every kernel kind of a shape: cold, disk hit, memory hit.", "kernel_compile_bench");
  app.add_option("--shape", settings.shapes, "DxN, repeatable")->capture_default_str();
  app.add_option("--dtype", settings.dtype)->capture_default_str();
  app.add_option("--layout", settings.layout)->capture_default_str();
  app.add_option("--rule", settings.rule)->capture_default_str();
  app.add_option("--arch", settings.arch, "default: the device's, else sm_90");
  app.add_option("--repeats", settings.repeats)->check(CLI::PositiveNumber)->capture_default_str();
  app.add_option("--threads", settings.threads, "for the parallel cold compile")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--json", settings.json, "also write the figures here");
  CLI11_PARSE(app, argc, argv);
  try {
    const runtime::DeviceArch device = runtime::current_device_arch();
    const std::string arch = !settings.arch.empty() ? settings.arch : device.found() ? device.arch : "sm_90";
    const std::string load_before = load_average();
    std::printf("kernel_compile_bench: NVRTC %s, %s (%s), %u hardware threads, %d repeats, load average %s\n",
                runtime::nvrtc_version().c_str(), arch.c_str(),
                !settings.arch.empty() ? "--arch" : device.found() ? "the device's" : "no device",
                std::thread::hardware_concurrency(), settings.repeats, load_before.c_str());

    std::vector<codegen::KernelSpec> specs;
    for (const std::string& shape : settings.shapes) specs.push_back(spec_of(shape, settings));
    // The process's first NVRTC compile, kept out of the medians.
    const codegen::KindSource first = codegen::every_kind_source(specs.front()).front();
    KernelCache warm_up(memory_only());
    const double first_seconds =
        request(warm_up, first.source, codegen::program_name(first.spec), arch, KernelOrigin::compiled, "warm-up")
            .seconds;
    std::printf("first NVRTC compile of the process (%s): %.1f ms\n", codegen::program_name(first.spec).c_str(),
                ms(first_seconds));

    std::vector<ShapeResult> results;
    for (const codegen::KernelSpec& spec : specs) {
      results.push_back(measure(spec, settings, arch));
      print(results.back(), settings);
    }
    const std::string load_after = load_average();
    std::printf("\nload average at the end: %s\n", load_after.c_str());

    if (!settings.json.empty()) {
      nlohmann::json shapes = nlohmann::json::array();
      for (const ShapeResult& shape : results) shapes.push_back(to_json(shape));
      const nlohmann::json out = {{"nvrtc", runtime::nvrtc_version()},
                                  {"arch", arch},
                                  {"dtype", settings.dtype},
                                  {"layout", settings.layout},
                                  {"rule", settings.rule},
                                  {"repeats", settings.repeats},
                                  {"threads", settings.threads},
                                  {"hardware_threads", std::thread::hardware_concurrency()},
                                  {"load_average_before", load_before},
                                  {"load_average_after", load_after},
                                  {"first_compile_seconds", first_seconds},
                                  {"shapes", shapes}};
      std::ofstream file(settings.json);
      file << out.dump(2) << "\n";
      if (!file) throw user_error("cannot write " + settings.json);
    }
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "kernel_compile_bench: %s\n", error.what());
    return 1;
  }
}
