// NVRTC to cubin, on a machine without a GPU: the image is an ELF file with every kernel and its
// register count, failures carry what reproduces them, and architectures are checked up front.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "runtime/cuda/nvrtc_compiler.hpp"
#include "sample_kernels.hpp"

using namespace tensordiag::runtime;
using namespace tensordiag::test;

namespace {

bool is_elf(const std::vector<char>& image) {
  return image.size() > 4 && image[0] == '\x7f' && image[1] == 'E' && image[2] == 'L' &&
         image[3] == 'F';
}

const KernelResources* find_kernel(const Cubin& cubin, const std::string& name) {
  const auto found = std::find_if(cubin.kernels.begin(), cubin.kernels.end(),
                                  [&](const KernelResources& kernel) { return kernel.name == name; });
  return found == cubin.kernels.end() ? nullptr : &*found;
}

bool contains(const std::vector<std::string>& values, const std::string& value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

}  // namespace

TEST_CASE("nvrtc: saxpy compiles to an sm_90 cubin that lists the kernel and its registers") {
  const Cubin cubin = compile_cubin(saxpy_source, "saxpy.cu", {}, "sm_90");
  CHECK(is_elf(cubin.image));
  CHECK(cubin.log.empty());
  CHECK(cubin.compile_seconds > 0);
  REQUIRE(cubin.kernels.size() == 1);
  const KernelResources* saxpy = find_kernel(cubin, "saxpy");
  REQUIRE(saxpy != nullptr);
  REQUIRE(saxpy->registers.has_value());
  CHECK(*saxpy->registers > 0);
  CHECK(saxpy->stack_frame_bytes == 0);
}

TEST_CASE("nvrtc: C++20 templates compile, one entry per instantiation under its mangled name") {
  const Cubin cubin = compile_cubin(template_source, "dot_rows.cu", {"-lineinfo"}, "sm_90");
  CHECK(is_elf(cubin.image));
  CHECK(cubin.kernels.size() == 2);
  for (const std::string& name : {dot_rows_double_8, dot_rows_float_4}) {
    CAPTURE(name);
    const KernelResources* kernel = find_kernel(cubin, name);
    REQUIRE(kernel != nullptr);
    REQUIRE(kernel->registers.has_value());
    CHECK(*kernel->registers > 0);
  }
}

TEST_CASE("nvrtc: a syntax error throws CompileError with the log, the options and the name") {
  try {
    compile_cubin(syntax_error_source, "broken.cu", {"-lineinfo"}, "sm_90");
    FAIL("compile_cubin accepted a syntax error");
  } catch (const CompileError& error) {
    CHECK(error.name() == "broken.cu");
    CHECK(error.log().find("broken.cu(3): error") != std::string::npos);
    CHECK(error.log().find("undeclared_value") != std::string::npos);
    CHECK(contains(error.options(), "--gpu-architecture=sm_90"));
    CHECK(contains(error.options(), "-std=c++20"));
    CHECK(contains(error.options(), "-lineinfo"));
    CHECK(error.numbered_source().empty());
    const std::string what = error.what();
    CHECK(what.find("broken.cu") != std::string::npos);
    CHECK(what.find("-lineinfo") != std::string::npos);
    CHECK(what.find(error.log()) != std::string::npos);
  }
}

TEST_CASE("nvrtc: with SourceOnError::attach the error carries the numbered source") {
  try {
    compile_cubin(syntax_error_source, "broken.cu", {}, "sm_90", SourceOnError::attach);
    FAIL("compile_cubin accepted a syntax error");
  } catch (const CompileError& error) {
    CHECK(error.numbered_source().find("3 |   x[1] = undeclared_value;\n") != std::string::npos);
    CHECK(error.numbered_source().starts_with("1 | extern \"C\""));
    CHECK(std::string(error.what()).find(error.numbered_source()) != std::string::npos);
  }
}

TEST_CASE("nvrtc: an unknown option is a CompileError that names it") {
  try {
    compile_cubin(saxpy_source, "saxpy.cu", {"--no-such-option"}, "sm_90");
    FAIL("compile_cubin accepted an unknown option");
  } catch (const CompileError& error) {
    CHECK(error.log().find("--no-such-option") != std::string::npos);
  }
}

TEST_CASE("nvrtc: the warnings of a successful compile are returned, not printed") {
  const Cubin cubin = compile_cubin("#warning generated code is odd\n" + saxpy_source, "odd.cu", {},
                                    "sm_90");
  CHECK(is_elf(cubin.image));
  CHECK(cubin.log.find("generated code is odd") != std::string::npos);
}

TEST_CASE("nvrtc: architectures are checked before compiling, and a bad one is the user's error") {
  CHECK(nvrtc_version().starts_with("13."));
  const std::vector<std::string> supported = supported_architectures();
  CHECK(contains(supported, "sm_90"));
  for (const std::string& arch : supported) CHECK_NOTHROW(check_architecture(arch));
  CHECK_NOTHROW(check_architecture("sm_90a"));
  for (const std::string arch : {"", "sm_", "sm_10", "sm_9", "sm90", "compute_90", "sm_90x",
                                 "sm_90 ", "sm_-90", "sm_0090a1"}) {
    CAPTURE(arch);
    CHECK_THROWS_AS(check_architecture(arch), tensordiag::user_error);
    CHECK_THROWS_AS(compile_cubin(saxpy_source, "saxpy.cu", {}, arch), tensordiag::user_error);
  }
  CHECK(is_elf(compile_cubin(saxpy_source, "saxpy.cu", {}, "sm_90a").image));
}

TEST_CASE("nvrtc: our options come first, never fast math nor contracted multiply-adds, then the caller's") {
  const std::vector<std::string> options = nvrtc_options({"-lineinfo"}, "sm_80");
  CHECK(options == std::vector<std::string>{"-std=c++20", "-default-device", "--fmad=false",
                                            "--gpu-architecture=sm_80", "-lineinfo"});
}
