// The tensordiag command: parses the command line, runs one subcommand and turns every failure into
// one line on stderr. Exit codes: 0 success, 1 bad input (user_error), 2 our bug (internal error),
// CLI11's own codes (100 and up) for a malformed command line, 130 / 143 for a diagonalize or
// generate stopped by SIGINT / SIGTERM (128 + the signal, as shells report it; interrupt_signals.hpp).
#include <cstdio>
#include <exception>
#include <new>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/cache_command.hpp"
#include "cli/demo_command.hpp"
#include "cli/diagonalize_command.hpp"
#include "cli/generate_command.hpp"
#include "cli/interrupt_signals.hpp"
#include "cli/kernels_command.hpp"
#include "codegen/codegen_error.hpp"
#include "runtime/cuda/cuda_check.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/cuda/nvrtc_compiler.hpp"
#include "runtime/core/version.hpp"

namespace {

// CLI11's default failure message adds a second line ("Run with --help ..."); keep it to one.
std::string one_line_failure(const CLI::App*, const CLI::Error& error) {
  return "tensordiag: error: " + std::string(error.what()) + " (see --help)\n";
}

int fail(const char* kind, const char* message, int exit_code) {
  std::fprintf(stderr, "tensordiag: %s: %s\n", kind, message);
  return exit_code;
}

// NVRTC's log and the options make many lines; the first line of the log says what failed.
std::string compile_failure(const tensordiag::runtime::CompileError& error) {
  const std::string& log = error.log();
  return "NVRTC could not compile the generated program '" + error.name() + "': " + log.substr(0, log.find('\n'));
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tensordiag::cli;
  CLI::App app(
      "tensordiag: Jacobi-type approximate orthogonal diagonalization of dense cubical tensors.\n"
      "T = C x_1 M_1 x_2 M_2 ... x_D M_D with orthogonal N x N factors M_n (unitary for complex\n"
      "tensors) and the core C as diagonal as possible. Tensors are NumPy .npy files: float32,\n"
      "float64, complex64 or complex128, C or Fortran order, order D >= 3 (2 with --structure\n"
      "symmetric or skew), size N in every mode.",
      "tensordiag");
  app.failure_message(one_line_failure);  // before the subcommands: they copy it when added
  app.set_version_flag("--version", "tensordiag " + std::string(tensordiag::runtime::version()));
  app.require_subcommand(1);

  DiagonalizeArguments diagonalize;
  GenerateArguments generate;
  KernelsArguments kernels;
  CacheArguments cache;
  const CLI::App* diagonalize_command = add_diagonalize_command(app, diagonalize);
  const CLI::App* generate_command = add_generate_command(app, generate);
  const CLI::App* kernels_command = add_kernels_command(app, kernels);
  const CLI::App* demo_command = add_demo_command(app);
  const CLI::App* cache_command = add_cache_command(app, cache);
  app.footer(  // after the subcommands, which would copy it
      "Examples:\n"
      "  tensordiag demo\n"
      "  tensordiag generate --order 4 --size 10 --seed 1 t.npy\n"
      "  tensordiag diagonalize t.npy --out result\n"
      "  tensordiag kernels --order 3 --size 64 --kernel group_pass\n"
      "  tensordiag cache info\n"
      "Run 'tensordiag COMMAND --help' for the options of a command; README.md has the details.");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error);
  }

  // The long commands stop cleanly on a signal; the short ones keep the default (end at once).
  if (diagonalize_command->parsed() || generate_command->parsed()) catch_interrupt_signals();
  try {
    if (diagonalize_command->parsed()) return run_diagonalize(diagonalize);
    if (generate_command->parsed()) return run_generate(generate);
    if (kernels_command->parsed()) return run_kernels(kernels);
    if (demo_command->parsed()) return run_demo();
    if (cache_command->parsed()) return run_cache(cache);
    return fail("internal error", "no subcommand ran", 2);
  } catch (const tensordiag::run_cancelled&) {
    // Unwinding has already removed the temporaries (AtomicOutput's destructor).
    const int signal = caught_interrupt_signal();
    if (signal == 0) return fail("internal error", "the run was cancelled without a signal", 2);
    return fail(interrupt_description(signal), "no output written", 128 + signal);
  } catch (const tensordiag::user_error& error) {
    return fail("error", error.what(), 1);
  } catch (const tensordiag::runtime::cuda_error& error) {
    return fail("error", error.what(), 1);
  } catch (const tensordiag::codegen::codegen_error& error) {  // a shape or rule codegen cannot serve
    return fail("error", error.what(), 1);
  } catch (const tensordiag::runtime::CompileError& error) {
    return fail("internal error", compile_failure(error).c_str(), 2);
  } catch (const std::bad_alloc&) {
    return fail("error", "out of memory: the tensor is too large for this machine", 1);
  } catch (const std::exception& error) {
    return fail("internal error", error.what(), 2);
  }
}
