#pragma once
// .npy files built byte for byte, independently of runtime/io/npy.cpp, so that tests can feed the
// reader (and the CLI) exactly the good and bad files they mean.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tensordiag::testing {

template <class T>
std::string raw_bytes(const std::vector<T>& values) {
  return {reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)};
}

// A .npy file laid out as numpy.lib.format writes it: "\x93NUMPY", major and minor version, the
// header length (little-endian uint16 for 1.0, uint32 for 2.0 and 3.0), the dict padded with
// spaces and ended by '\n' so that everything before the data is a multiple of 64 bytes
// (NumPy's padding formula, 64 - (prefix + dict + 1) % 64, which is never 0), then the data.
inline std::string npy_file(int major, std::string_view dict, std::string_view data = {}) {
  const std::size_t width = major == 1 ? 2 : 4;
  const std::size_t padding = 64 - (8 + width + dict.size() + 1) % 64;
  const std::size_t length = dict.size() + padding + 1;
  std::string file("\x93NUMPY", 6);
  file += static_cast<char>(major);
  file += '\0';
  for (std::size_t i = 0; i < width; ++i) file += static_cast<char>((length >> (8 * i)) & 0xff);
  file += dict;
  file += std::string(padding, ' ') + '\n';
  file += data;
  return file;
}

inline std::string dict_for(std::string_view descr, std::string_view shape, bool fortran = false) {
  return "{'descr': '" + std::string(descr) +
         "', 'fortran_order': " + (fortran ? "True" : "False") +
         ", 'shape': " + std::string(shape) + ", }";
}

}  // namespace tensordiag::testing
