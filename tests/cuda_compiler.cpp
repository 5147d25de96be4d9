#include "tests/cuda_compiler.hpp"

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

namespace tensordiag::test {

namespace {

std::filesystem::path fresh_directory() {
  std::random_device entropy;
  const auto base = std::filesystem::temp_directory_path();
  for (;;) {
    const auto path = base / ("tensordiag_nvcc_" + std::to_string(entropy()));
    if (std::filesystem::create_directory(path)) return path;
  }
}

CompileOutcome compile_one(const std::string& nvcc, const CudaSource& source, const std::filesystem::path& directory) {
  const auto cu = directory / (source.name + ".cu");
  const auto cubin = directory / (source.name + ".cubin");
  const auto log = directory / (source.name + ".log");
  std::ofstream(cu, std::ios::binary) << source.text;
  const std::string command = "\"" + nvcc + "\" -x cu --cubin -arch=sm_90 -std=c++17 -Werror all-warnings -o \"" +
                              cubin.string() + "\" \"" + cu.string() + "\" > \"" + log.string() + "\" 2>&1";
  const int status = std::system(command.c_str());
  std::ostringstream text;
  text << std::ifstream(log).rdbuf();
  return {source.name, status == 0 && std::filesystem::exists(cubin), command + "\n" + text.str()};
}

}  // namespace

std::vector<CompileOutcome> compile_with_nvcc(const std::string& nvcc, const std::vector<CudaSource>& sources,
                                              int jobs) {
  const auto directory = fresh_directory();
  std::vector<CompileOutcome> outcomes(sources.size());
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> workers;
  for (int j = 0; j < jobs; ++j)
    workers.emplace_back([&] {
      for (std::size_t i = next++; i < sources.size(); i = next++) outcomes[i] = compile_one(nvcc, sources[i], directory);
    });
  for (auto& worker : workers) worker.join();
  std::filesystem::remove_all(directory);
  return outcomes;
}

}  // namespace tensordiag::test
