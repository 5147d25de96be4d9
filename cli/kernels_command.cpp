#include "cli/kernels_command.hpp"

#include <cstdio>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/atomic_output.hpp"
#include "cli/rule_option.hpp"
#include "cli/tensor_options.hpp"
#include "codegen/kernel_source.hpp"
#include "runtime/cuda/device_arch.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/cuda/kernel_cache.hpp"
#include "runtime/cuda/nvrtc_compiler.hpp"
#include "runtime/engines/tuning_environment.hpp"

namespace tensordiag::cli {

namespace {

struct Sources {
  std::vector<codegen::KindSource> generated;
  std::vector<std::string> refusals;  // with --kernel all: why each left-out kind cannot serve the shape
};

// A named kind that cannot serve the shape (or that a symmetric run does not load) throws
// codegen_error; `all` leaves such kinds out.
Sources requested_sources(const KernelsArguments& arguments) {
  const bool all = arguments.kernel == "all";
  const codegen::KernelStructure structure = codegen::parse_kernel_structure(arguments.structure);
  // The tuning variables a run would apply (TENSORDIAG_CHUNK_TILE_BYTES, ...), so that the source
  // shown is the one that runs under the same environment.
  const codegen::KernelSpec spec =
      codegen::make_kernel_spec(all ? "group_pass" : arguments.kernel, arguments.order, arguments.size,
                                arguments.dtype, arguments.layout, arguments.rule,
                                runtime::tuning_from_environment({}));
  if (!all) {
    const codegen::KernelSpec kind = codegen::for_structure(spec, structure);
    return {{{kind, codegen::kernel_source(kind), {}}}, {}};
  }
  Sources sources;
  for (codegen::KindSource& kind : codegen::every_kind_source(spec, structure)) {
    if (kind.generated())
      sources.generated.push_back(std::move(kind));
    else
      sources.refusals.push_back(std::move(kind.refusal));
  }
  return sources;
}

struct Target {
  std::string arch;
  std::string origin;  // how it was chosen, for the table's title
};

// --arch, checked; else the device's; else an error that says to pass --arch.
Target compile_target(const std::string& requested) {
  if (!requested.empty()) {
    runtime::check_architecture(requested);
    return {requested, "--arch"};
  }
  const runtime::DeviceArch device = runtime::current_device_arch();
  if (!device.found())
    throw user_error("no CUDA device to take the architecture from (" + device.reason +
                     "): pass --arch, e.g. --arch sm_90");
  return {device.arch, "the device's"};
}

std::string optional_number(const std::optional<int>& value) {
  return value ? std::to_string(*value) : "?";
}

void print_sources(const std::vector<codegen::KindSource>& sources) {
  for (std::size_t i = 0; i < sources.size(); ++i) {
    if (sources.size() > 1)
      std::printf("%s// ==== tensordiag kernels: %s.cu (%zu of %zu) ====\n", i == 0 ? "" : "\n",
                  std::string(codegen::to_string(sources[i].spec.kind)).c_str(), i + 1, sources.size());
    std::fputs(sources[i].source.c_str(), stdout);
  }
}

// One row per kernel; the figures of its program (compile seconds, origin, cubin bytes) on the
// first row of the program.
void print_table(const std::vector<codegen::KindSource>& sources,
                 const std::vector<runtime::CompiledKernel>& compiled, const Target& target,
                 const runtime::KernelCache& cache) {
  const std::string directory = cache.directory().empty() ? "off" : cache.directory().string();
  std::printf("NVRTC %s, %s (%s), disk cache: %s\n", runtime::nvrtc_version().c_str(), target.arch.c_str(),
              target.origin.c_str(), directory.c_str());
  std::printf("%-18s  %-18s  %9s  %-12s  %11s  %9s  %11s\n", "kind", "kernel", "seconds", "origin",
              "cubin bytes", "registers", "stack bytes");
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const runtime::CompiledKernel& program = compiled[i];
    for (std::size_t k = 0; k < program.kernels.size(); ++k) {
      const runtime::KernelResources& kernel = program.kernels[k];
      const std::string registers = optional_number(kernel.registers);
      const std::string stack = optional_number(kernel.stack_frame_bytes);
      if (k == 0)
        std::printf("%-18s  %-18s  %9.4f  %-12s  %11zu  %9s  %11s\n",
                    std::string(codegen::to_string(sources[i].spec.kind)).c_str(), kernel.name.c_str(),
                    program.seconds, std::string(runtime::to_string(program.origin)).c_str(),
                    program.cubin.size(), registers.c_str(), stack.c_str());
      else
        std::printf("%-18s  %-18s  %9s  %-12s  %11s  %9s  %11s\n", "", kernel.name.c_str(), "", "", "",
                    registers.c_str(), stack.c_str());
    }
  }
}

}  // namespace

CLI::App* add_kernels_command(CLI::App& app, KernelsArguments& arguments) {
  CLI::App* command = app.add_subcommand(
      "kernels",
      "Print the CUDA source generated for a shape, dtype, layout and rule:\n"
      "one kernel kind, or every kind that serves the shape. --out writes\n"
      "DIR/<kind>.cu instead; --compile compiles each with NVRTC through\n"
      "the kernel cache and prints a table of the kernels in place of the\n"
      "sources. Needs no GPU (pass --arch where there is none).");
  // Order 2 passes: a symmetric matrix's kinds serve it (the GPU's Jacobi eigenvalue method), the
  // others refuse it with codegen's pointer to an SVD.
  add_tensor_options(*command, arguments.order, arguments.size, arguments.dtype, arguments.layout, true, true);
  add_rule_option(*command, arguments.rule);
  command->add_option("--structure", arguments.structure,
                      "general, symmetric or skew: the kinds a run of that structure\n"
                      "loads, with the symmetric variants of small_tensor and\n"
                      "subspace_angles (one rotation a pair in every mode) and of\n"
                      "subspace_apply (the tiles of non-decreasing cosets, written to\n"
                      "every arrangement), or the skew variant of small_tensor; the\n"
                      "others are named as unused")
      ->check(CLI::IsMember({"general", "symmetric", "skew"}))
      ->capture_default_str();
  std::vector<std::string> kinds = codegen::kernel_kinds();
  kinds.emplace_back("all");
  command->add_option("--kernel", arguments.kernel,
                      "The kernel kind; all: every kind that serves the shape (the\n"
                      "others are named on stderr)")
      ->check(CLI::IsMember(kinds))
      ->capture_default_str();
  command->add_option("--out", arguments.out,
                      "Write DIR/<kind>.cu (replacing files of those names) instead of\n"
                      "printing; all files or none")
      ->type_name("DIR");
  CLI::Option* compile =
      command->add_flag("--compile", arguments.compile,
                        "Compile with NVRTC through the kernel cache and print, per\n"
                        "kernel: compile seconds, cache origin, cubin bytes, registers,\n"
                        "stack frame bytes");
  command->add_option("--arch", arguments.arch,
                      "Target of --compile, e.g. sm_90; default: the device's")
      ->needs(compile);
  return command;
}

int run_kernels(const KernelsArguments& arguments) {
  const Target target = arguments.compile ? compile_target(arguments.arch) : Target{};
  const Sources sources = requested_sources(arguments);
  runtime::KernelCache& cache = runtime::default_kernel_cache();
  std::vector<runtime::CompiledKernel> compiled;
  if (arguments.compile)
    for (const codegen::KindSource& kind : sources.generated)
      compiled.push_back(cache.get_or_compile(kind.source, codegen::program_name(kind.spec), {}, target.arch));
  if (!arguments.out.empty()) {
    AtomicOutput output(arguments.out);
    for (const codegen::KindSource& kind : sources.generated)
      output.stage_text(std::string(codegen::to_string(kind.spec.kind)) + ".cu", kind.source);
    output.commit();
  }
  if (arguments.compile)
    print_table(sources.generated, compiled, target, cache);
  else if (arguments.out.empty())
    print_sources(sources.generated);
  // Only once all went well, so a failure stays one line.
  for (const std::string& refusal : sources.refusals) std::fprintf(stderr, "tensordiag: left out: %s\n", refusal.c_str());
  for (std::size_t i = 0; i < compiled.size(); ++i)
    if (!compiled[i].log.empty())
      std::fprintf(stderr, "tensordiag: NVRTC's warnings on %s:\n%s\n",
                   codegen::program_name(sources.generated[i].spec).c_str(), compiled[i].log.c_str());
  for (const std::string& warning : cache.warnings()) std::fprintf(stderr, "tensordiag: warning: %s\n", warning.c_str());
  return 0;
}

}  // namespace tensordiag::cli
