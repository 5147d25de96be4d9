// .npy reading and writing: round trips through real files, files built byte for byte the way
// NumPy writes them (numpy.lib.format), and every kind of bad input.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <random>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "npy_bytes.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/io/npy.hpp"
#include "scratch_dir.hpp"

namespace {

namespace fs = std::filesystem;
using tensordiag::internal_error;
using tensordiag::user_error;
using namespace tensordiag::runtime;
using namespace tensordiag::testing;

// Seeded values spread over many binades, of both signs, never zero.
template <class T>
HostTensor<T> random_tensor(int order, int size, Layout layout, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<double> mantissa(0.5, 1.0);
  std::uniform_int_distribution<int> exponent(-30, 30);
  std::bernoulli_distribution negative(0.5);
  HostTensor<T> tensor(order, size, layout);
  for (auto& value : tensor.values()) {
    const double magnitude = std::ldexp(mantissa(engine), exponent(engine));
    value = static_cast<T>(negative(engine) ? -magnitude : magnitude);
  }
  return tensor;
}

// The call throws a user_error whose one-line message starts with the file name and contains
// the phrase.
template <class Action>
void check_user_error(Action action, const fs::path& file, std::string_view phrase) {
  try {
    action();
    FAIL("no user_error was thrown; expected one containing \"" << phrase << "\"");
  } catch (const user_error& error) {
    const std::string message = error.what();
    INFO("message: " << message);
    CHECK(message.starts_with(file.string() + ": "));
    CHECK(message.find(phrase) != std::string::npos);
    CHECK(message.find('\n') == std::string::npos);
  }
}

std::span<const unsigned char> as_bytes(std::string_view bytes) {
  return {reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()};
}

void check_read_error(const ScratchDir& dir, std::string_view name, std::string_view bytes,
                      std::string_view phrase) {
  const fs::path file = dir / name;
  write_file(file, bytes);
  check_user_error([&] { read_npy_array(file); }, file, phrase);
  check_user_error([&] { read_tensor(file); }, file, phrase);
  // The in-memory readers (the fuzzer's entry points) share the parser, and so the message.
  check_user_error([&] { read_npy_array(as_bytes(bytes), file); }, file, phrase);
  check_user_error([&] { read_tensor(as_bytes(bytes), file); }, file, phrase);
  check_user_error([&] { NpyReader reader(file); }, file, phrase);  // the header alone refuses it
}

void check_tensor_error(const ScratchDir& dir, std::string_view name, std::string_view bytes,
                        std::string_view phrase) {
  const fs::path file = dir / name;
  write_file(file, bytes);
  check_user_error([&] { read_tensor(file); }, file, phrase);
}

template <class T>
void check_round_trip(const ScratchDir& dir, int order, int size, Layout layout) {
  const HostTensor<T> tensor = random_tensor<T>(
      order, size, layout, 1000u * static_cast<unsigned>(order) + static_cast<unsigned>(size));
  const std::set<T> distinct(tensor.values().begin(), tensor.values().end());
  REQUIRE(distinct.size() > tensor.count() / 2);

  const fs::path file = dir / "round_trip.npy";
  write_tensor(file, tensor);
  const AnyTensor read = read_tensor(file);
  REQUIRE(std::holds_alternative<HostTensor<T>>(read));
  const auto& back = std::get<HostTensor<T>>(read);
  CHECK(back.order() == order);
  CHECK(back.size() == size);
  CHECK(back.layout() == layout);
  REQUIRE(back.count() == tensor.count());
  CHECK(std::memcmp(back.data(), tensor.data(), tensor.count() * sizeof(T)) == 0);

  const std::string bytes = read_file(file);
  const std::size_t header_length = static_cast<unsigned char>(bytes[8]) |
                                    static_cast<std::size_t>(static_cast<unsigned char>(bytes[9]))
                                        << 8;
  CHECK(bytes.substr(0, 8) == std::string("\x93NUMPY\x01\x00", 8));
  CHECK((10 + header_length) % 64 == 0);
  CHECK(bytes[10 + header_length - 1] == '\n');
  CHECK(bytes.size() == 10 + header_length + tensor.count() * sizeof(T));
  const std::string header = bytes.substr(10, header_length);
  CHECK(header.find(layout == Layout::fortran_order
                        ? "'fortran_order': True"
                        : "'fortran_order': False") != std::string::npos);
  CHECK(header.find(sizeof(T) == 4 ? "'<f4'" : "'<f8'") != std::string::npos);
}

}  // namespace

TEST_CASE("npy: tensors round-trip bit for bit, keeping dtype and layout") {
  const ScratchDir dir("npy");
  const std::pair<int, int> shapes[] = {{3, 2}, {3, 3}, {3, 7}, {4, 2}, {4, 3},
                                        {4, 7}, {5, 2}, {5, 3}, {5, 7}};
  for (const Layout layout : {Layout::c_order, Layout::fortran_order}) {
    for (const auto& [order, size] : shapes) {
      CAPTURE(order);
      CAPTURE(size);
      CAPTURE(to_string(layout));
      check_round_trip<float>(dir, order, size, layout);
      check_round_trip<double>(dir, order, size, layout);
    }
  }
}

TEST_CASE("npy: a written tensor has exactly the bytes numpy.save writes") {
  const ScratchDir dir("npy");
  const std::vector<double> values = {0, 1, 2, 3, 4, 5, 6, 7};
  write_tensor(dir / "t.npy", HostTensor<double>(3, 2, Layout::c_order, values));
  // np.save(f, np.arange(8.0).reshape(2, 2, 2)) with NumPy 1.24: header length 118 (0x76).
  const std::string expected = npy_file(1, dict_for("<f8", "(2, 2, 2)"), raw_bytes(values));
  CHECK(expected.substr(8, 2) == std::string("\x76\x00", 2));
  CHECK(read_file(dir / "t.npy") == expected);

  const std::vector<float> fortran_values = {0, 1, 2, 3, 4, 5, 6, 7};
  write_tensor(dir / "f.npy", HostTensor<float>(3, 2, Layout::fortran_order, fortran_values));
  CHECK(read_file(dir / "f.npy") ==
        npy_file(1, dict_for("<f4", "(2, 2, 2)", true), raw_bytes(fortran_values)));
}

TEST_CASE("npy: write_matrix writes an n x n C-order array") {
  const ScratchDir dir("npy");
  Matrix<double> matrix = Matrix<double>::identity(3);
  matrix(0, 2) = -2.5;
  matrix(2, 1) = 1e-300;
  write_matrix(dir / "m.npy", matrix);
  const NpyArray array = read_npy_array(dir / "m.npy");
  CHECK(array.dtype == Dtype::float64);
  CHECK_FALSE(array.fortran_order);
  CHECK(array.shape == std::vector<std::size_t>{3, 3});
  CHECK(array.bytes.size() == 9 * sizeof(double));
  CHECK(std::memcmp(array.bytes.data(), matrix.data.data(), array.bytes.size()) == 0);

  const Matrix<float> single{2, {1.0f, 2.0f, 3.0f, 4.0f}};
  write_matrix(dir / "s.npy", single);
  CHECK(read_file(dir / "s.npy") == npy_file(1, dict_for("<f4", "(2, 2)"), raw_bytes(single.data)));
}

TEST_CASE("npy: arrays of any shape round-trip through write_npy_array and read_npy_array") {
  const ScratchDir dir("npy");
  const std::vector<std::vector<std::size_t>> shapes = {{},  {5},       {2, 3},
                                                        {0}, {4, 0, 2}, {1, 2, 1, 3}};
  std::uint8_t next = 1;
  for (const auto& shape : shapes) {
    for (const bool fortran : {false, true}) {
      NpyArray array;
      array.dtype = Dtype::float32;
      array.fortran_order = fortran;
      array.shape = shape;
      std::size_t count = 1;
      for (auto extent : shape) count *= extent;
      for (std::size_t i = 0; i < count * 4; ++i) array.bytes.push_back(next++);
      write_npy_array(dir / "a.npy", array);
      const NpyArray back = read_npy_array(dir / "a.npy");
      CHECK(back.dtype == Dtype::float32);
      CHECK(back.fortran_order == fortran);
      CHECK(back.shape == shape);
      CHECK(back.bytes == array.bytes);
    }
  }
}

TEST_CASE("npy: write_vector and NpyReader round-trip a vector bit for bit, the header first") {
  const ScratchDir dir("npy");
  std::mt19937_64 engine(4242);
  std::normal_distribution<double> normal;
  std::vector<double> wide(1001);
  for (double& v : wide) v = normal(engine) * std::ldexp(1.0, static_cast<int>(engine() % 40) - 20);
  std::vector<float> narrow(37);
  for (float& v : narrow) v = static_cast<float>(normal(engine));
  write_vector(dir / "wide.npy", std::span<const double>(wide));
  write_vector(dir / "narrow.npy", std::span<const float>(narrow));
  // The same bytes as write_npy_array of the same data.
  NpyArray array;
  array.dtype = Dtype::float64;
  array.shape = {wide.size()};
  array.bytes.resize(wide.size() * sizeof(double));
  std::memcpy(array.bytes.data(), wide.data(), array.bytes.size());
  write_npy_array(dir / "array.npy", array);
  CHECK(read_file(dir / "wide.npy") == read_file(dir / "array.npy"));

  NpyReader reader(dir / "wide.npy");
  CHECK(reader.dtype() == Dtype::float64);
  CHECK_FALSE(reader.fortran_order());
  CHECK(reader.shape() == std::vector<std::size_t>{wide.size()});
  CHECK_THROWS_AS(reader.values<float>(), internal_error);  // not the file's dtype
  CHECK(reader.values<double>() == wide);
  CHECK_THROWS_AS(reader.values<double>(), internal_error);  // read once
  NpyReader narrow_reader(dir / "narrow.npy");
  CHECK(narrow_reader.dtype() == Dtype::float32);
  CHECK(narrow_reader.values<float>() == narrow);

  // Bad files are refused on opening, before any data is read (check_read_error runs every case).
  write_file(dir / "short.npy", npy_file(1, dict_for("<f8", "(30,)"), std::string(100, '\0')));
  CHECK_THROWS_WITH_AS(NpyReader(dir / "short.npy"), doctest::Contains("truncated data"), user_error);
}

TEST_CASE("npy: a header longer than 65535 bytes is written as version 2.0") {
  const ScratchDir dir("npy");
  NpyArray array;
  array.shape.assign(30000, 1);  // "1, " per mode: about 90 kB of header
  array.bytes.assign(8, 0x3f);
  write_npy_array(dir / "long.npy", array);
  const std::string bytes = read_file(dir / "long.npy");
  REQUIRE(bytes.size() > 12);
  CHECK(bytes[6] == 2);
  CHECK(bytes[7] == 0);
  std::size_t header_length = 0;
  for (std::size_t i = 4; i-- > 0;)
    header_length = header_length << 8 | static_cast<unsigned char>(bytes[8 + i]);
  CHECK(header_length > 65535);
  CHECK((12 + header_length) % 64 == 0);
  CHECK(bytes.size() == 12 + header_length + 8);
  const NpyArray back = read_npy_array(dir / "long.npy");
  CHECK(back.shape == array.shape);
  CHECK(back.bytes == array.bytes);
}

TEST_CASE("npy: reads files laid out as NumPy writes them") {
  const ScratchDir dir("npy");
  const std::vector<double> values = {0.5, -1, 2, 3e10, 4, 5, 6, -7e-10};

  SUBCASE("version 1.0, C and Fortran order: data kept in file order, layout from the header") {
    // C order: the last index varies fastest; Fortran order: the first.
    for (const bool fortran : {false, true}) {
      CAPTURE(fortran);
      write_file(dir / "t.npy",
                 npy_file(1, dict_for("<f8", "(2, 2, 2)", fortran), raw_bytes(values)));
      const AnyTensor any = read_tensor(dir / "t.npy");
      REQUIRE(std::holds_alternative<HostTensor<double>>(any));
      const auto& tensor = std::get<HostTensor<double>>(any);
      CHECK(tensor.layout() == (fortran ? Layout::fortran_order : Layout::c_order));
      CHECK(tensor.values() == values);
      CHECK(tensor.at({0, 0, 1}) == (fortran ? 4 : -1));
      CHECK(tensor.at({1, 0, 0}) == (fortran ? -1 : 4));
    }
  }
  SUBCASE("float32") {
    const std::vector<float> singles = {1.5f, -2, 3,  4,  5,  6,  7,  8.25f,
                                        9,    10, 11, 12, 13, 14, 15, 16};
    write_file(dir / "s.npy", npy_file(1, dict_for("<f4", "(2, 2, 2, 2)"), raw_bytes(singles)));
    const AnyTensor any = read_tensor(dir / "s.npy");
    REQUIRE(std::holds_alternative<HostTensor<float>>(any));
    CHECK(std::get<HostTensor<float>>(any).order() == 4);
    CHECK(std::get<HostTensor<float>>(any).values() == singles);
  }
  SUBCASE("versions 2.0 and 3.0: a 4-byte header length") {
    for (const int major : {2, 3}) {
      write_file(dir / "v.npy", npy_file(major, dict_for("<f8", "(2, 2, 2)"), raw_bytes(values)));
      CHECK(std::get<HostTensor<double>>(read_tensor(dir / "v.npy")).values() == values);
    }
  }
  SUBCASE("any key order, any whitespace, either quote, with or without a trailing comma") {
    const std::string dicts[] = {
        "{'shape': (2, 2, 2), 'fortran_order': False, 'descr': '<f8'}",
        "{ \"fortran_order\" :False,\t'shape':( 2 ,2, 2 , ) ,'descr' : \"<f8\" , }",
        "{\n  'descr': '<f8',\n  'shape': (2,2,2),\n  'fortran_order': False\n}",
    };
    for (const auto& dict : dicts) {
      CAPTURE(dict);
      write_file(dir / "k.npy", npy_file(1, dict, raw_bytes(values)));
      CHECK(std::get<HostTensor<double>>(read_tensor(dir / "k.npy")).values() == values);
    }
  }
  SUBCASE("'=f8' and '=f4' (native order) read as little-endian") {
    write_file(dir / "n8.npy", npy_file(1, dict_for("=f8", "(2, 2, 2)"), raw_bytes(values)));
    CHECK(std::get<HostTensor<double>>(read_tensor(dir / "n8.npy")).values() == values);
    const std::vector<float> singles(8, 0.25f);
    write_file(dir / "n4.npy", npy_file(1, dict_for("=f4", "(2, 2, 2)"), raw_bytes(singles)));
    CHECK(std::get<HostTensor<float>>(read_tensor(dir / "n4.npy")).values() == singles);
  }
  SUBCASE("vectors, scalars and empty arrays as plain arrays") {
    write_file(dir / "v.npy",
               npy_file(1, dict_for("<f8", "(5,)"), raw_bytes(std::vector<double>{1, 2, 3, 4, 5})));
    CHECK(read_npy_array(dir / "v.npy").shape == std::vector<std::size_t>{5});
    write_file(dir / "s.npy",
               npy_file(1, dict_for("<f8", "()"), raw_bytes(std::vector<double>{42})));
    const NpyArray scalar = read_npy_array(dir / "s.npy");
    CHECK(scalar.shape.empty());
    CHECK(scalar.bytes.size() == 8);
    write_file(dir / "e.npy", npy_file(1, dict_for("<f4", "(0, 3)")));
    const NpyArray empty = read_npy_array(dir / "e.npy");
    CHECK(empty.shape == std::vector<std::size_t>{0, 3});
    CHECK(empty.bytes.empty());
  }
  SUBCASE("bytes after the data are ignored, as np.load does") {
    write_file(dir / "x.npy",
               npy_file(1, dict_for("<f8", "(2, 2, 2)"), raw_bytes(values) + "extra"));
    CHECK(std::get<HostTensor<double>>(read_tensor(dir / "x.npy")).values() == values);
  }
}

TEST_CASE("npy: a missing, empty or non-.npy file is a user_error naming it") {
  const ScratchDir dir("npy");
  check_user_error([&] { read_tensor(dir / "missing.npy"); }, dir / "missing.npy", "no such file");
  check_user_error([&] { read_npy_array(dir.path()); }, dir.path(), "is a directory");
  check_read_error(dir, "empty.npy", "", "magic");
  check_read_error(dir, "text.npy", "hello, world\n", "wrong magic");
  std::string near_magic = npy_file(1, dict_for("<f8", "(2, 2, 2)"));
  near_magic[5] = 'Z';
  check_read_error(dir, "near.npy", near_magic, "wrong magic");
  check_read_error(dir, "archive.npz", std::string("PK\x03\x04\x14\x00\x00\x00", 8), ".npz");
  check_read_error(dir, "v4.npy", std::string("\x93NUMPY\x04\x00\x76\x00", 10), "version 4.0");
  check_read_error(dir, "v11.npy", std::string("\x93NUMPY\x01\x01\x76\x00", 10), "version 1.1");
}

TEST_CASE("npy: a truncated header is a user_error") {
  const ScratchDir dir("npy");
  const std::string whole = npy_file(1, dict_for("<f8", "(2, 2, 2)"), std::string(64, '\0'));
  check_read_error(dir, "magic_only.npy", whole.substr(0, 4), "truncated header");
  check_read_error(dir, "no_length.npy", whole.substr(0, 8), "truncated header");
  check_read_error(dir, "half_length.npy", whole.substr(0, 9), "truncated header");
  check_read_error(dir, "v2_half_length.npy", npy_file(2, dict_for("<f8", "(2,)")).substr(0, 11),
                   "truncated header");
  check_read_error(dir, "cut_header.npy", whole.substr(0, 40), "truncated header");
}

TEST_CASE("npy: a malformed header is a user_error") {
  const ScratchDir dir("npy");
  const std::pair<std::string_view, std::string_view> cases[] = {
      {"", "expected '{'"},
      {"['descr', '<f8']", "expected '{'"},
      {"{'descr': '<f8', 'fortran_order': False}", "missing key 'shape'"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (2,), 'extra': 1}",
       "unexpected key 'extra'"},
      {"{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (2,)}", "duplicate key"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': [2, 2, 2]}", "'shape' must be a tuple"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (2)}", "'shape' must be a tuple"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (-2, 2, 2)}", "expected a string"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (2.5, 2, 2)}", "expected ',' or ')'"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': ('2', 2)}", "'shape' must be a tuple"},
      {"{'descr': '<f8', 'fortran_order': 'no', 'shape': (2,)}",
       "'fortran_order' must be True or False"},
      {"{'descr': 8, 'fortran_order': False, 'shape': (2,)}", "'descr' must be a dtype string"},
      {"{'descr': '<f8, 'fortran_order': False, 'shape': (2,)}", "after the value of 'descr'"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (2,)", "expected ',' or '}'"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (2,)} junk", "unexpected text after"},
      {"{descr: '<f8', 'fortran_order': False, 'shape': (2,)}", "expected a quoted key"},
      {"{'descr': '<f8', 'fortran_order': false, 'shape': (2,)}", "expected a string, True, False"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (2,), 'unterminated",
       "unterminated string"},
  };
  for (const auto& [dict, phrase] : cases) {
    CAPTURE(dict);
    check_read_error(dir, "malformed.npy", npy_file(1, dict, std::string(64, '\0')), phrase);
    check_read_error(dir, "malformed.npy", npy_file(1, dict), "malformed header");
  }
}

TEST_CASE("npy: an unsupported dtype is a user_error naming it and the supported ones") {
  const ScratchDir dir("npy");
  for (const std::string_view descr :
       {">f8", ">f4", "<f2", "<i8", "<i4", "|u1", "|b1", ">c16", "<c32", "|O", "float64", "|f8"}) {
    CAPTURE(descr);
    const std::string expected =
        "unsupported dtype '" + std::string(descr) +
        "' (tensordiag reads little-endian float32 '<f4', float64 '<f8', complex64 '<c8' and complex128 '<c16')";
    check_read_error(dir, "input.npy",
                     npy_file(1, dict_for(descr, "(2, 2, 2)"), std::string(128, '\0')), expected);
  }
  check_read_error(dir, "record.npy",
                   npy_file(1,
                            "{'descr': [('x', '<f8'), ('y', '<f4', (2,))], 'fortran_order': False, "
                            "'shape': (2, 2, 2), }",
                            std::string(128, '\0')),
                   "unsupported dtype: a structured (record) dtype");
}

TEST_CASE("npy: missing data and impossible sizes are user_errors, found before allocating") {
  const ScratchDir dir("npy");
  check_read_error(
      dir, "short.npy", npy_file(1, dict_for("<f8", "(3, 3, 3)"), std::string(100, '\0')),
      "truncated data: shape (3, 3, 3) of float64 needs 216 bytes, the file has only 100");
  check_read_error(dir, "no_data.npy", npy_file(1, dict_for("<f4", "(2, 2, 2)")), "truncated data");
  // 8e18 bytes: fits in size_t, so only the file's length shows that it cannot be right.
  check_read_error(dir, "huge.npy", npy_file(1, dict_for("<f8", "(1000000, 1000000, 1000000)")),
                   "truncated data");
  check_read_error(dir, "overflow.npy",
                   npy_file(1, dict_for("<f8", "(1099511627776, 1099511627776, 1099511627776)")),
                   "is too large: its byte count overflows");
  check_read_error(dir, "overflow_f4.npy", npy_file(1, dict_for("<f4", "(4611686018427387904,)")),
                   "too large");
  check_read_error(dir, "digits.npy",
                   npy_file(1, dict_for("<f8", "(99999999999999999999999, 2, 2)")),
                   "shape entry 99999999999999999999999 is too large");
}

TEST_CASE("npy: read_tensor rejects shapes that are not cubical tensors of order >= 3") {
  const ScratchDir dir("npy");
  const std::string data(1024, '\0');
  check_tensor_error(dir, "scalar.npy", npy_file(1, dict_for("<f8", "()"), data),
                     "shape () is a scalar; tensordiag needs a cubical tensor of order >= 3");
  check_tensor_error(dir, "vector.npy", npy_file(1, dict_for("<f8", "(5,)"), data),
                     "shape (5,) is a vector; tensordiag needs a cubical tensor of order >= 3");
  check_tensor_error(dir, "matrix.npy", npy_file(1, dict_for("<f8", "(3, 3)"), data),
                     "order 2 is a matrix; its diagonalization by orthogonal factors is the SVD "
                     "(numpy.linalg.svd)");
  check_tensor_error(dir, "box.npy", npy_file(1, dict_for("<f8", "(3, 4, 3)"), data),
                     "shape (3, 4, 3) is not cubical");
  check_tensor_error(dir, "box4.npy", npy_file(1, dict_for("<f4", "(2, 2, 2, 3)"), data),
                     "shape (2, 2, 2, 3) is not cubical");
  check_tensor_error(dir, "empty.npy", npy_file(1, dict_for("<f8", "(0, 0, 0)")),
                     "shape (0, 0, 0) is empty; tensordiag needs size N >= 2");
  check_tensor_error(dir, "single.npy", npy_file(1, dict_for("<f8", "(1, 1, 1)"), data),
                     "trivially diagonal; tensordiag needs size N >= 2");

  // The same files are fine as plain arrays.
  CHECK(read_npy_array(dir / "matrix.npy").shape == std::vector<std::size_t>{3, 3});
  CHECK(read_npy_array(dir / "box.npy").shape == std::vector<std::size_t>{3, 4, 3});
}

TEST_CASE("npy: read_tensor rejects NaN and Inf, naming the flat index in file order") {
  const ScratchDir dir("npy");
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> values(27, 1.0);
  values[5] = std::numeric_limits<double>::quiet_NaN();
  check_tensor_error(dir, "nan.npy",
                     npy_file(1, dict_for("<f8", "(3, 3, 3)", true), raw_bytes(values)),
                     "contains NaN or Inf at flat index 5 (file order): nan");
  values[5] = 1.0;
  values[26] = inf;
  check_tensor_error(dir, "inf.npy", npy_file(1, dict_for("<f8", "(3, 3, 3)"), raw_bytes(values)),
                     "contains NaN or Inf at flat index 26 (file order): inf");
  values[26] = 1.0;
  values[0] = -inf;
  check_tensor_error(dir, "minus_inf.npy",
                     npy_file(1, dict_for("<f8", "(3, 3, 3)"), raw_bytes(values)),
                     "at flat index 0 (file order): -inf");

  std::vector<float> singles(8, 2.0f);
  singles[3] = std::numeric_limits<float>::signaling_NaN();
  check_tensor_error(dir, "nan32.npy",
                     npy_file(1, dict_for("<f4", "(2, 2, 2)"), raw_bytes(singles)),
                     "NaN or Inf at flat index 3");
  CHECK(read_npy_array(dir / "nan32.npy").bytes.size() == 32);
}

TEST_CASE("npy: write errors are user_errors naming the path") {
  const ScratchDir dir("npy");
  const HostTensor<double> tensor = random_tensor<double>(3, 2, Layout::c_order, 7);
  const fs::path no_dir = dir / "no_such_dir" / "core.npy";
  check_user_error([&] { write_tensor(no_dir, tensor); }, no_dir, "cannot open for writing");
  CHECK_FALSE(fs::exists(no_dir));
  check_user_error([&] { write_matrix(dir.path(), Matrix<float>::identity(2)); }, dir.path(),
                   "cannot open for writing");
  if (fs::exists("/dev/full")) {
    // Every write to /dev/full fails with ENOSPC: the short write must not pass silently.
    check_user_error([&] { write_tensor("/dev/full", tensor); }, "/dev/full", "write failed");
  }
}

TEST_CASE("npy: writing data that does not match its shape is an internal_error") {
  const ScratchDir dir("npy");
  NpyArray array;
  array.shape = {2, 2};
  array.bytes.assign(3 * 8, 0);
  CHECK_THROWS_AS(write_npy_array(dir / "bad.npy", array), internal_error);
  const Matrix<double> matrix{3, std::vector<double>(4, 0.0)};
  CHECK_THROWS_AS(write_matrix(dir / "bad.npy", matrix), internal_error);
  CHECK_FALSE(fs::exists(dir / "bad.npy"));
}

// Found by libFuzzer (fuzz/corpus/npy/crash_newline_in_key.npy): key names went into messages
// raw, so a key holding a newline made a message of several lines.
TEST_CASE("npy: keys are quoted with control bytes escaped, keeping messages on one line") {
  const ScratchDir dir("npy");
  const std::pair<std::string_view, std::string_view> cases[] = {
      {"{'des\ncr': '<f8', 'fortran_order': False, 'shape': (2,)}",
       "unexpected key 'des\\x0acr'"},
      {"{'descr': '<f8', 'descr\r\n': '<f8', 'fortran_order': False, 'shape': (2,)}",
       "unexpected key 'descr\\x0d\\x0a'"},
      {"{'a\nb' 1}", "':' after key 'a\\x0ab'"},
      {"{'a\nb': 1 'c': 2}", "after the value of 'a\\x0ab'"},
      {"{'x\n': 1, 'x\n': 2}", "duplicate key 'x\\x0a'"},
  };
  for (const auto& [dict, phrase] : cases) {
    CAPTURE(dict);
    check_read_error(dir, "key.npy", npy_file(1, dict, std::string(16, '\0')), phrase);
  }
}

// Found by reading the parser while fuzzing (the fuzzer's 4 KiB inputs nest too shallowly to
// reach it): each '(' was a stack frame, so a header of a million of them overflowed the stack.
TEST_CASE("npy: tuples nested 100000 deep are a user_error, not a stack overflow") {
  const ScratchDir dir("npy");
  // (A million levels no longer reach the parser: their 2 MB header is over the header cap, below.)
  for (const std::size_t depth : {65u, 100000u}) {
    CAPTURE(depth);
    for (const char open : {'(', '['}) {
      const std::string shape = std::string(depth, open) + std::string(depth, open == '(' ? ')' : ']');
      check_read_error(dir, "deep.npy", npy_file(2, dict_for("<f8", shape)),
                       "nested more than 64 deep");
    }
  }
  // 64 levels are still parsed: the error is about the shape, not the nesting.
  check_read_error(dir, "deep64.npy",
                   npy_file(1, dict_for("<f8", std::string(63, '(') + "('2',)" + std::string(63, ')'))),
                   "'shape' must be a tuple of non-negative integers");
}

TEST_CASE("npy: a header over 1 MiB is refused before it is read") {
  const ScratchDir dir("npy");
  // A valid dict followed by spaces past the cap, in format 2.0 (4-byte length).
  const std::string dict = dict_for("<f8", "(2, 2, 2)");
  const std::string data(64, '\0');
  const std::string huge = npy_file(2, dict + std::string(1u << 20, ' '), data);
  check_read_error(dir, "huge_header.npy", huge, "malformed header: it declares 1048");
  check_read_error(dir, "huge_header.npy", huge, " bytes, over the 1048576 this reader takes (NumPy writes a few hundred)");
  // Just under the cap still reads.
  const std::string fits = npy_file(2, dict + std::string((1u << 20) - 200, ' '), data);
  CHECK(read_npy_array(as_bytes(fits), dir / "big_header.npy").shape == std::vector<std::size_t>{2, 2, 2});
}

// The fuzzer's seed corpus (fuzz/corpus/npy/, written by fuzz/make_npy_corpus.py), read by this
// build's compiler too, without the fuzzer: the file and the in-memory readers agree on every seed,
// accepting it or refusing it with the same one line naming the file. Seeds are named for what
// they hold: valid_* are arrays (and read_tensor takes those of a cubical shape), bad_tensor_* are
// arrays that read_tensor refuses, every other seed is refused by both.
TEST_CASE("npy: every seed of the fuzz corpus is read or refused alike from a file and from memory") {
  const fs::path corpus = fs::path(TENSORDIAG_SOURCE_DIR) / "fuzz" / "corpus" / "npy";
  const auto outcome = [](auto&& read, NpyArray& array) {
    try {
      array = read();
      return std::string();
    } catch (const user_error& error) {
      return std::string(error.what());
    }
  };
  std::size_t seeds = 0;
  std::size_t arrays = 0;
  for (const auto& entry : fs::directory_iterator(corpus)) {
    const fs::path file = entry.path();
    const std::string name = file.filename().string();
    CAPTURE(name);
    ++seeds;
    const std::string bytes = read_file(file);
    NpyArray from_file;
    NpyArray from_memory;
    const std::string file_error = outcome([&] { return read_npy_array(file); }, from_file);
    const std::string memory_error =
        outcome([&] { return read_npy_array(as_bytes(bytes), file); }, from_memory);
    CHECK(file_error == memory_error);
    CHECK(file_error.find('\n') == std::string::npos);
    const bool is_array = name.starts_with("valid_") || name.starts_with("bad_tensor_");
    CHECK(file_error.empty() == is_array);
    if (name.starts_with("bad_tensor_")) {
      check_user_error([&] { read_tensor(file); }, file, "");
      check_user_error([&] { read_tensor(as_bytes(bytes), file); }, file, "");
    }
    if (!file_error.empty()) continue;
    ++arrays;
    CHECK(from_file.dtype == from_memory.dtype);
    CHECK(from_file.fortran_order == from_memory.fortran_order);
    CHECK(from_file.shape == from_memory.shape);
    CHECK(from_file.bytes == from_memory.bytes);
  }
  CHECK(seeds >= 50);
  CHECK(arrays >= 20);
}

TEST_CASE("npy: complex64 and complex128 tensors and matrices round-trip exactly, the real reader refuses them") {
  const ScratchDir dir("npy");
  std::mt19937_64 engine(91);
  std::normal_distribution<double> gauss;
  for (const Layout layout : {Layout::c_order, Layout::fortran_order}) {
    HostTensor<std::complex<double>> wide(3, 4, layout);
    for (auto& value : wide.values()) value = {gauss(engine), gauss(engine)};
    HostTensor<std::complex<float>> narrow(4, 3, layout);
    for (auto& value : narrow.values()) value = {static_cast<float>(gauss(engine)), static_cast<float>(gauss(engine))};
    write_tensor(dir / "wide.npy", wide);
    write_tensor(dir / "narrow.npy", narrow);
    const AnyComplexTensor wide_back = read_complex_tensor(dir / "wide.npy");
    const AnyComplexTensor narrow_back = read_complex_tensor(dir / "narrow.npy");
    CHECK(dtype_of(wide_back) == Dtype::complex128);
    CHECK(dtype_of(narrow_back) == Dtype::complex64);
    CHECK(std::get<HostTensor<std::complex<double>>>(wide_back).values() == wide.values());
    CHECK(std::get<HostTensor<std::complex<float>>>(narrow_back).values() == narrow.values());
    CHECK(std::get<HostTensor<std::complex<double>>>(wide_back).layout() == layout);
    CHECK(read_tensor_shape(dir / "wide.npy").dtype == Dtype::complex128);
    check_user_error([&] { read_tensor(dir / "wide.npy"); }, dir / "wide.npy", "holds complex128 data");
  }
  write_tensor(dir / "real.npy", random_tensor<double>(3, 3, Layout::c_order, 5));
  check_user_error([&] { read_complex_tensor(dir / "real.npy"); }, dir / "real.npy", "holds real float64 data");
  Matrix<std::complex<double>> factor{2, {{1, 2}, {3, -4}, {-5, 6}, {7, 0.5}}};
  write_matrix(dir / "factor.npy", factor);
  const NpyArray array = read_npy_array(dir / "factor.npy");
  CHECK(array.dtype == Dtype::complex128);
  CHECK(array.bytes.size() == 4 * 16);
  CHECK(std::memcmp(array.bytes.data(), factor.data.data(), array.bytes.size()) == 0);
  // A NaN in an imaginary part is found like one in a real value.
  HostTensor<std::complex<double>> bad(3, 2, Layout::c_order);
  for (auto& value : bad.values()) value = {1.0, 2.0};
  bad.values()[6] = {1.0, std::numeric_limits<double>::infinity()};
  write_tensor(dir / "bad.npy", bad);
  check_user_error([&] { read_complex_tensor(dir / "bad.npy"); }, dir / "bad.npy",
                   "contains NaN or Inf at flat index 6 (file order): inf in the imaginary part");
}
