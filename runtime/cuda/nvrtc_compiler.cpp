#include "runtime/cuda/nvrtc_compiler.hpp"
#include "runtime/core/stopwatch.hpp"

#include "runtime/cuda/nvrtc_library.hpp"

#include <algorithm>
#include <charconv>
#include <memory>
#include <utility>

namespace tensordiag::runtime {
namespace {

std::string describe(nvrtcResult result) { return nvrtc().error_string(result); }

void check_nvrtc(nvrtcResult result, const char* call) {
  if (result != NVRTC_SUCCESS) {
    throw internal_error(std::string("NVRTC: ") + call + " failed: " + describe(result));
  }
}

struct ProgramDeleter {
  void operator()(nvrtcProgram program) const { nvrtc().destroy_program(&program); }
};
using Program = std::unique_ptr<std::remove_pointer_t<nvrtcProgram>, ProgramDeleter>;

std::vector<int> supported_compute_capabilities() {
  int count = 0;
  check_nvrtc(nvrtc().supported_arch_count(&count), "nvrtcGetNumSupportedArchs");
  std::vector<int> capabilities(static_cast<std::size_t>(count));
  check_nvrtc(nvrtc().supported_archs(capabilities.data()), "nvrtcGetSupportedArchs");
  return capabilities;
}

std::string program_log(nvrtcProgram program) {
  std::size_t size = 0;
  check_nvrtc(nvrtc().program_log_size(program, &size), "nvrtcGetProgramLogSize");
  std::string log(size, '\0');
  check_nvrtc(nvrtc().program_log(program, log.data()), "nvrtcGetProgramLog");
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

// Each line prefixed by its 1-based number, right-aligned, as CuPy dumps failed sources, so that
// the log's "name(line)" can be found by eye.
std::string numbered(std::string_view source) {
  std::vector<std::string_view> lines;
  for (std::size_t start = 0; start < source.size();) {
    const std::size_t end = std::min(source.find('\n', start), source.size());
    lines.push_back(source.substr(start, end - start));
    start = end + 1;
  }
  const std::size_t width = std::to_string(lines.size()).size();
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string label = std::to_string(i + 1);
    out.append(width - label.size(), ' ').append(label).append(" | ").append(lines[i]);
    out.push_back('\n');
  }
  return out;
}

std::string compile_error_message(const std::string& name, const std::vector<std::string>& options,
                                  const std::string& log, const std::string& numbered_source) {
  std::string message = "NVRTC could not compile the generated program '" + name + "'\noptions:";
  for (const std::string& option : options) message += " " + option;
  message += "\nlog:\n" + log;
  if (!numbered_source.empty()) message += "\nsource:\n" + numbered_source;
  return message;
}

// `source` compiled as the program `name` with `options`, and NVRTC's log. Throws CompileError
// when NVRTC rejects the program or an option, internal_error when NVRTC itself fails.
std::pair<Program, std::string> compiled_program(std::string_view source, const std::string& name,
                                                 const std::vector<std::string>& options, SourceOnError on_error) {
  std::vector<const char*> option_pointers;
  for (const std::string& option : options) option_pointers.push_back(option.c_str());
  nvrtcProgram raw = nullptr;
  const std::string source_text(source);  // NVRTC wants a terminated string
  check_nvrtc(nvrtc().create_program(&raw, source_text.c_str(), name.c_str(), 0, nullptr, nullptr),
              "nvrtcCreateProgram");
  Program program(raw);
  const nvrtcResult compiled = nvrtc().compile_program(
      program.get(), static_cast<int>(option_pointers.size()), option_pointers.data());
  std::string log = program_log(program.get());
  if (compiled == NVRTC_ERROR_COMPILATION || compiled == NVRTC_ERROR_INVALID_OPTION) {
    if (log.empty()) log = describe(compiled);
    throw CompileError(name, options, std::move(log),
                       on_error == SourceOnError::attach ? numbered(source) : std::string());
  }
  check_nvrtc(compiled, "nvrtcCompileProgram");
  return {std::move(program), std::move(log)};
}

}  // namespace

CompileError::CompileError(std::string name, std::vector<std::string> options, std::string log,
                           std::string numbered_source)
    : internal_error(compile_error_message(name, options, log, numbered_source)),
      name_(std::move(name)),
      options_(std::move(options)),
      log_(std::move(log)),
      numbered_source_(std::move(numbered_source)) {}

std::string nvrtc_version() {
  int major = 0;
  int minor = 0;
  check_nvrtc(nvrtc().version(&major, &minor), "nvrtcVersion");
  return std::to_string(major) + "." + std::to_string(minor);
}

std::vector<std::string> supported_architectures() {
  std::vector<std::string> names;
  for (const int capability : supported_compute_capabilities()) {
    names.push_back("sm_" + std::to_string(capability));
  }
  return names;
}

void check_architecture(const std::string& arch) {
  static const std::vector<int> capabilities = supported_compute_capabilities();
  std::string_view digits = arch;
  bool valid = digits.starts_with("sm_");
  if (valid) {
    digits.remove_prefix(3);
    if (digits.ends_with('a') || digits.ends_with('f')) digits.remove_suffix(1);
    int capability = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), capability);
    valid = !digits.empty() && error == std::errc() && end == digits.data() + digits.size() &&
            std::find(capabilities.begin(), capabilities.end(), capability) != capabilities.end();
  }
  if (!valid) {
    std::string message = "unsupported GPU architecture '" + arch + "': NVRTC " + nvrtc_version() +
                          " compiles cubins for";
    for (const std::string& name : supported_architectures()) message += " " + name;
    throw user_error(message);
  }
}

std::vector<std::string> nvrtc_options(const std::vector<std::string>& extra,
                                       const std::string& arch) {
  // --fmad=false: no fused multiply-adds the source does not write, as the CPU engine is built
  // (-ffp-contract=off): both engines round the same way (issue 13).
  std::vector<std::string> options = {"-std=c++20", "-default-device", "--fmad=false", "--gpu-architecture=" + arch};
  options.insert(options.end(), extra.begin(), extra.end());
  return options;
}

Cubin compile_cubin(std::string_view source, const std::string& name,
                    const std::vector<std::string>& extra_options, const std::string& arch,
                    SourceOnError on_error) {
  check_architecture(arch);
  const Stopwatch stopwatch;
  auto [program, log] = compiled_program(source, name, nvrtc_options(extra_options, arch), on_error);
  Cubin cubin;
  std::size_t size = 0;
  check_nvrtc(nvrtc().cubin_size(program.get(), &size), "nvrtcGetCUBINSize");
  cubin.image.resize(size);
  check_nvrtc(nvrtc().cubin(program.get(), cubin.image.data()), "nvrtcGetCUBIN");
  cubin.compile_seconds = stopwatch.seconds();
  cubin.kernels = read_cubin_resources(cubin.image);
  cubin.log = std::move(log);
  return cubin;
}

std::string compile_ptx(std::string_view source, const std::string& name,
                        const std::vector<std::string>& extra_options, int capability) {
  check_architecture("sm_" + std::to_string(capability));  // the virtual one's real twin
  const std::string arch = "compute_" + std::to_string(capability);
  const auto [program, log] = compiled_program(source, name, nvrtc_options(extra_options, arch), SourceOnError::attach);
  std::size_t size = 0;
  check_nvrtc(nvrtc().ptx_size(program.get(), &size), "nvrtcGetPTXSize");
  std::string ptx(size, '\0');
  check_nvrtc(nvrtc().ptx(program.get(), ptx.data()), "nvrtcGetPTX");
  while (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();
  return ptx;
}

}  // namespace tensordiag::runtime
