// libFuzzer target for the .npy reader (runtime/io/npy.cpp, npy_batch.cpp) through its in-memory
// entry points, which share every line of parsing with the file readers (npy_source.hpp). Built
// with clang's -fsanitize=fuzzer,address,undefined by scripts/fuzz-npy.sh.
//
// Beyond what the sanitizers catch, an input is a finding when the reader
//   - throws anything but a user_error (an internal_error or a std:: exception is our bug),
//   - gives a user_error whose message is not one line starting with the file name,
//   - accepts an array whose bytes are not exactly prod(shape) x element size, or
//   - disagrees with itself: read_tensor or read_tensor_batch accepts what read_npy_array refuses,
//     or returns values other than the array's bytes.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <span>
#include <string>
#include <variant>

#include "runtime/core/errors.hpp"
#include "runtime/io/npy.hpp"
#include "runtime/io/npy_batch.hpp"

namespace {

using namespace tensordiag::runtime;

constexpr const char* input_name = "fuzz-input.npy";

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "npy_fuzzer: %s\n", what.c_str());
  std::abort();
}

void check_message(const tensordiag::user_error& error) {
  const std::string message = error.what();
  if (!message.starts_with(std::string(input_name) + ": "))
    finding("a user_error that does not start with the file name: " + message);
  if (message.find('\n') != std::string::npos) finding("a user_error of several lines: " + message);
}

// Runs one reader; true when it accepted the input, false on a well-formed user_error.
template <class Read>
bool accepts(Read&& read) {
  try {
    read();
    return true;
  } catch (const tensordiag::user_error& error) {
    check_message(error);
    return false;
  } catch (const std::exception& error) {
    finding(std::string("an exception other than user_error: ") + error.what());
  }
}

std::size_t product(const std::vector<std::size_t>& shape) {
  std::size_t count = 1;
  for (auto extent : shape) count *= extent;
  return count;
}

template <class T>
void check_same_values(const std::vector<T>& values, const unsigned char* bytes) {
  if (!values.empty() && std::memcmp(values.data(), bytes, values.size() * sizeof(T)) != 0)
    finding("read_tensor's values differ from read_npy_array's bytes");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const unsigned char> bytes(data, size);
  NpyArray array;
  const bool array_ok = accepts([&] { array = read_npy_array(bytes, input_name); });
  if (array_ok) {
    const std::size_t item = dtype_bytes(array.dtype);
    if (array.bytes.size() != product(array.shape) * item)
      finding("an array whose byte count is not prod(shape) x element size");
  }

  AnyTensor tensor;
  if (accepts([&] { tensor = read_tensor(bytes, input_name); })) {
    if (!array_ok) finding("read_tensor accepts what read_npy_array refuses");
    std::visit([&](const auto& t) { check_same_values(t.values(), array.bytes.data()); }, tensor);
  }

  if (accepts([&] { (void)read_tensor_batch(bytes, input_name); }) && !array_ok)
    finding("read_tensor_batch accepts what read_npy_array refuses");
  return 0;
}
