#include "runtime/io/npy.hpp"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "runtime/core/errors.hpp"
#include "runtime/core/scalar.hpp"
#include "runtime/io/npy_source.hpp"

// The .npy format, as specified by NumPy (NEP 1, "A simple file format for NumPy arrays", and the
// numpy.lib.format module documentation):
//   - 6 bytes of magic, "\x93NUMPY", then one byte each for the major and minor format version;
//   - version 1.0: the header length HEADER_LEN as a little-endian uint16; versions 2.0 and 3.0: a
//     little-endian uint32 (3.0 differs from 2.0 only in the header's encoding, UTF-8 instead of
//     latin-1, which matters only for structured field names);
//   - HEADER_LEN bytes of header: the repr of a Python dict with exactly the keys 'descr' (a dtype
//     string such as '<f8'), 'fortran_order' (True or False) and 'shape' (a tuple of ints), padded
//     with spaces and ended by '\n' so that magic + length + header is a multiple of 64 bytes;
//   - the data: prod(shape) elements back to back, in C order, or in Fortran order (first index
//     fastest) when fortran_order is True. np.load ignores bytes past the data, and so do we.
// Values are copied byte for byte into host memory, which is correct because the host is
// little-endian (x86-64), like the only byte order we accept.
static_assert(std::endian::native == std::endian::little,
              "npy.cpp copies little-endian file data into host values unchanged");

namespace tensordiag::runtime {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view npy_magic = "\x93NUMPY";
constexpr std::size_t npy_alignment = 64;
constexpr std::string_view accepted_dtypes =
    "tensordiag reads little-endian float32 '<f4', float64 '<f8', complex64 '<c8' and complex128 '<c16'";

[[noreturn]] void fail(const fs::path& file, const std::string& what) {
  throw user_error(file.string() + ": " + what);
}

}  // namespace

void fail_too_large(const fs::path& file, std::size_t bytes) {
  fail(file, "too large to load into memory (" + std::to_string(bytes) + " bytes)");
}

namespace {

// errno's text after a failed stream operation (libstdc++ streams sit on C stdio, which sets it).
std::string system_reason() {
  return errno != 0 ? std::string(std::strerror(errno)) : std::string("unknown reason");
}

// Text from the file quoted in a one-line message: control bytes escaped, long headers cut.
std::string quote_for_message(std::string_view text, char quote = '"') {
  constexpr std::size_t max_shown = 80;
  std::string out(1, quote);
  for (std::size_t i = 0; i < text.size() && i < max_shown; ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x20 && byte < 0x7f) {
      out += text[i];
    } else {
      constexpr std::string_view hex = "0123456789abcdef";
      out += "\\x";
      out += hex[byte >> 4];
      out += hex[byte & 0xf];
    }
  }
  if (text.size() > max_shown) out += "...";
  return out + quote;
}

std::size_t item_size(Dtype dtype) { return dtype_bytes(dtype); }

std::string_view descr_of(Dtype dtype) {
  switch (dtype) {
    case Dtype::float32: return "<f4";
    case Dtype::float64: return "<f8";
    case Dtype::complex64: return "<c8";
    case Dtype::complex128: return "<c16";
  }
  return "?";
}

// prod(shape) * item size, or nothing when it does not fit in size_t.
std::optional<std::size_t> byte_count(const std::vector<std::size_t>& shape, Dtype dtype) {
  std::size_t bytes = item_size(dtype);
  for (auto extent : shape) {
    if (extent != 0 && bytes > std::numeric_limits<std::size_t>::max() / extent)
      return std::nullopt;
    bytes *= extent;
  }
  return bytes;
}

// A Python literal as it can appear in a .npy header: a str, a bool, a non-negative int, or a
// tuple or list of literals (lists appear only in structured dtypes, which we reject but must
// parse to reach the other keys).
struct PyLiteral {
  enum class Kind { string, boolean, integer, tuple, list };
  Kind kind = Kind::string;
  std::string text;
  bool flag = false;
  std::size_t integer = 0;
  std::vector<PyLiteral> items;
};

// Recursive descent over the header dict: '{' (key ':' value ',')* [key ':' value] '}', with any
// whitespace between tokens and any key order, as Python's literal syntax allows.
class HeaderParser {
public:
  HeaderParser(std::string_view text, const fs::path& file) : text_(text), file_(file) {}

  std::map<std::string, PyLiteral> parse_dict() {
    std::map<std::string, PyLiteral> dict;
    skip_space();
    expect('{', "'{' opening the header dict");
    skip_space();
    while (!consume('}')) {
      if (peek() != '\'' && peek() != '"') malformed("expected a quoted key or '}'");
      std::string key = parse_string();
      skip_space();
      expect(':', "':' after key " + quote_for_message(key, '\''));
      PyLiteral value = parse_value();
      if (!dict.emplace(key, std::move(value)).second)
        malformed("duplicate key " + quote_for_message(key, '\''));
      skip_space();
      if (!consume(',')) {
        expect('}', "',' or '}' after the value of " + quote_for_message(key, '\''));
        break;
      }
      skip_space();
    }
    skip_space();
    if (pos_ != text_.size()) malformed("unexpected text after the header dict");
    return dict;
  }

private:
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }

  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }

  bool consume(char c) {
    if (pos_ == text_.size() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }

  void expect(char c, const std::string& what) {
    if (!consume(c)) malformed("expected " + what);
  }

  [[noreturn]] void malformed(const std::string& what) const {
    fail(file_, "malformed header: " + what + " at offset " + std::to_string(pos_) + " of " +
                    quote_for_message(text_));
  }

  PyLiteral parse_value() {
    skip_space();
    PyLiteral value;
    const char c = peek();
    if (c == '\'' || c == '"') {
      value.kind = PyLiteral::Kind::string;
      value.text = parse_string();
    } else if (c >= '0' && c <= '9') {
      value.kind = PyLiteral::Kind::integer;
      value.integer = parse_integer();
    } else if (c == '(' || c == '[') {
      return parse_sequence();
    } else if (text_.substr(pos_, 4) == "True") {
      pos_ += 4;
      value.kind = PyLiteral::Kind::boolean;
      value.flag = true;
    } else if (text_.substr(pos_, 5) == "False") {
      pos_ += 5;
      value.kind = PyLiteral::Kind::boolean;
    } else {
      malformed("expected a string, True, False, an integer, a tuple or a list");
    }
    return value;
  }

  // A tuple needs a comma when it has one element: "(5)" is the integer 5, as in Python. The
  // nesting is capped because each level is a stack frame: a header of a million '(' would
  // otherwise overflow the stack. NumPy's own headers nest a few levels (structured dtypes).
  PyLiteral parse_sequence() {
    constexpr int max_nesting = 64;
    if (depth_ == max_nesting)
      malformed("tuples or lists nested more than " + std::to_string(max_nesting) + " deep");
    ++depth_;
    PyLiteral sequence = parse_sequence_items();
    --depth_;
    return sequence;
  }

  PyLiteral parse_sequence_items() {
    const char close = peek() == '(' ? ')' : ']';
    PyLiteral sequence;
    sequence.kind = close == ')' ? PyLiteral::Kind::tuple : PyLiteral::Kind::list;
    ++pos_;
    bool trailing_comma = false;
    skip_space();
    while (!consume(close)) {
      sequence.items.push_back(parse_value());
      skip_space();
      trailing_comma = consume(',');
      if (!trailing_comma) {
        expect(close, std::string("',' or '") + close + "'");
        break;
      }
      skip_space();
    }
    if (close == ')' && sequence.items.size() == 1 && !trailing_comma)
      return std::move(sequence.items.front());
    return sequence;
  }

  // Quoted with ' or "; a backslash takes the next character literally (NumPy's dtype strings
  // contain no escapes).
  std::string parse_string() {
    const char quote = text_[pos_++];
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) ++pos_;
      out += text_[pos_++];
    }
    if (!consume(quote)) malformed("unterminated string");
    return out;
  }

  std::size_t parse_integer() {
    const std::size_t start = pos_;
    std::size_t value = 0;
    while (peek() >= '0' && peek() <= '9') {
      const auto digit = static_cast<std::size_t>(text_[pos_] - '0');
      if (value > (std::numeric_limits<std::size_t>::max() - digit) / 10) {
        while (peek() >= '0' && peek() <= '9') ++pos_;
        fail(file_,
             "shape entry " + std::string(text_.substr(start, pos_ - start)) + " is too large");
      }
      value = value * 10 + digit;
      ++pos_;
    }
    return value;
  }

  std::string_view text_;
  const fs::path& file_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

// What the header says about the data that follows it.
struct NpyHeader {
  Dtype dtype = Dtype::float64;
  bool fortran_order = false;
  std::vector<std::size_t> shape;
  std::size_t data_bytes = 0;
  std::uintmax_t data_offset = 0;
};

// '=' (native order) is read as little-endian: that is what np.load does on a little-endian host,
// the only kind we build for (see the static_assert above). NumPy itself always writes '<'.
Dtype dtype_from_descr(const PyLiteral& descr, const fs::path& file) {
  if (descr.kind == PyLiteral::Kind::list)
    fail(file,
         "unsupported dtype: a structured (record) dtype (" + std::string(accepted_dtypes) + ")");
  if (descr.kind != PyLiteral::Kind::string)
    fail(file, "malformed header: 'descr' must be a dtype string such as '<f8'");
  if (descr.text == "<f4" || descr.text == "=f4") return Dtype::float32;
  if (descr.text == "<f8" || descr.text == "=f8") return Dtype::float64;
  if (descr.text == "<c8" || descr.text == "=c8") return Dtype::complex64;
  if (descr.text == "<c16" || descr.text == "=c16") return Dtype::complex128;
  fail(file, "unsupported dtype " + quote_for_message(descr.text, '\'') + " (" +
                 std::string(accepted_dtypes) + ")");
}

NpyHeader interpret_header(std::string_view text, const fs::path& file) {
  const auto dict = HeaderParser(text, file).parse_dict();
  for (const auto& entry : dict) {
    if (entry.first != "descr" && entry.first != "fortran_order" && entry.first != "shape")
      fail(file, "malformed header: unexpected key " + quote_for_message(entry.first, '\'') +
                     " (a .npy header has exactly 'descr', 'fortran_order' and 'shape')");
  }
  for (const char* key : {"descr", "fortran_order", "shape"}) {
    if (!dict.contains(key)) fail(file, std::string("malformed header: missing key '") + key + "'");
  }

  NpyHeader header;
  header.dtype = dtype_from_descr(dict.at("descr"), file);

  const PyLiteral& fortran = dict.at("fortran_order");
  if (fortran.kind != PyLiteral::Kind::boolean)
    fail(file, "malformed header: 'fortran_order' must be True or False");
  header.fortran_order = fortran.flag;

  const PyLiteral& shape = dict.at("shape");
  if (shape.kind != PyLiteral::Kind::tuple)
    fail(file, "malformed header: 'shape' must be a tuple of non-negative integers");
  for (const auto& extent : shape.items) {
    if (extent.kind != PyLiteral::Kind::integer)
      fail(file, "malformed header: 'shape' must be a tuple of non-negative integers");
    header.shape.push_back(extent.integer);
  }

  const auto bytes = byte_count(header.shape, header.dtype);
  if (!bytes)
    fail(file, "shape " + shape_text(header.shape) + " of " + std::string(to_string(header.dtype)) +
                   " is too large: its byte count overflows");
  header.data_bytes = *bytes;
  return header;
}

std::uint32_t little_endian(const unsigned char* bytes, std::size_t width) {
  std::uint32_t value = 0;
  for (std::size_t i = width; i-- > 0;) value = value << 8 | bytes[i];
  return value;
}

// Reads the prefix and header of a .npy file from source, leaving it positioned at the data, and
// checks that the data is all there, so that callers may allocate header.data_bytes.
NpyHeader read_header(NpySource& source, const fs::path& file) {
  const std::uintmax_t file_size = source.size();
  // magic (6) + version (2) + header length (2 or 4).
  unsigned char prefix[12] = {};
  const std::size_t got = std::min<std::uintmax_t>(file_size, 8);
  if (!source.read(prefix, got)) fail(file, "read error: " + source.failure_reason());
  const std::string_view magic(reinterpret_cast<const char*>(prefix),
                               std::min<std::size_t>(got, npy_magic.size()));
  if (got == 0) fail(file, "empty file, not a .npy file (no magic string \"\\x93NUMPY\")");
  if (magic.starts_with("PK\x03\x04"))
    fail(file,
         "a .npz (zip) archive, not a .npy file (wrong magic): extract one array with "
         "numpy.load(...)[name] and numpy.save it");
  if (magic != npy_magic.substr(0, magic.size()))
    fail(file,
         "not a .npy file: wrong magic " + quote_for_message(magic) + ", expected \"\\x93NUMPY\"");
  if (got < 8) fail(file, "truncated header: the file has only " + std::to_string(got) + " bytes");

  const unsigned major = prefix[6];
  const unsigned minor = prefix[7];
  if (minor != 0 || major < 1 || major > 3)
    fail(file, "unsupported .npy format version " + std::to_string(major) + "." +
                   std::to_string(minor) + " (tensordiag reads 1.0, 2.0 and 3.0)");
  const std::size_t length_width = major == 1 ? 2 : 4;
  const std::size_t prefix_size = 8 + length_width;
  if (file_size < prefix_size || !source.read(prefix + 8, length_width))
    fail(file, "truncated header: the file ends inside the header length field");

  const std::uintmax_t header_length = little_endian(prefix + 8, length_width);
  // NumPy writes headers of a few hundred bytes (and refuses to read over 10000 by default); a
  // larger one is no tensor's, and would be read whole into memory.
  constexpr std::uintmax_t largest_header = 1 << 20;
  if (header_length > largest_header)
    fail(file, "malformed header: it declares " + std::to_string(header_length) + " bytes, over the " +
                   std::to_string(largest_header) + " this reader takes (NumPy writes a few hundred)");
  const std::uintmax_t after_prefix = file_size - prefix_size;
  if (header_length > after_prefix)
    fail(file, "truncated header: it declares " + std::to_string(header_length) +
                   " bytes but the file has only " + std::to_string(after_prefix) + " after it");
  std::string text(static_cast<std::size_t>(header_length), '\0');
  if (!source.read(text.data(), text.size()))
    fail(file, "read error in the header: " + source.failure_reason());

  NpyHeader header = interpret_header(text, file);
  header.data_offset = prefix_size + header_length;
  const std::uintmax_t available = after_prefix - header_length;
  if (header.data_bytes > available)
    fail(file, "truncated data: shape " + shape_text(header.shape) + " of " +
                   std::string(to_string(header.dtype)) + " needs " +
                   std::to_string(header.data_bytes) + " bytes, the file has only " +
                   std::to_string(available) + " after the header");
  return header;
}

// Allocates count elements, turning an allocation failure into a user_error: the shape is the
// user's, and a shape the file really holds can still exceed this machine's memory.
template <class T>
std::vector<T> allocate(std::size_t count, const fs::path& file) {
  try {
    return std::vector<T>(count);
  } catch (const std::bad_alloc&) {
  } catch (const std::length_error&) {
  }
  fail_too_large(file, count * sizeof(T));
}

template <class T>
void read_data(NpySource& source, std::vector<T>& values, const fs::path& file) {
  if (!source.read(values.data(), values.size() * sizeof(T)))
    fail(file, "read error in the data: " + source.failure_reason());
}

// "nan", "inf" or "-inf" for a value that is not finite.
template <class R>
std::string non_finite_name(R value) {
  return std::isnan(value) ? "nan" : value > 0 ? "inf" : "-inf";
}

template <class T>
HostTensor<T> load_tensor(NpySource& source, const NpyHeader& header, const fs::path& file) {
  std::vector<T> values = allocate<T>(header.data_bytes / sizeof(T), file);
  read_data(source, values, file);
  for (std::size_t k = 0; k < values.size(); ++k) {
    const auto at = [&](const std::string& what) {
      fail(file, "contains NaN or Inf at flat index " + std::to_string(k) + " (file order): " + what);
    };
    if constexpr (is_complex_v<T>) {
      if (!std::isfinite(values[k].real())) at(non_finite_name(values[k].real()) + " in the real part");
      if (!std::isfinite(values[k].imag())) at(non_finite_name(values[k].imag()) + " in the imaginary part");
    } else if (!std::isfinite(values[k])) {
      at(non_finite_name(values[k]));
    }
  }
  // N >= 2, order >= 3 and N^order * sizeof(T) fits in 64 bits, so the order is at most 62 and N
  // below 2^21: both fit in int.
  const auto order = static_cast<int>(header.shape.size());
  const auto size = static_cast<int>(header.shape.front());
  const Layout layout = header.fortran_order ? Layout::fortran_order : Layout::c_order;
  return HostTensor<T>(order, size, layout, std::move(values));
}

}  // namespace

// Magic, version, header length and the padded header dict, written as NumPy writes them: keys
// sorted, version 1.0 unless the header outgrows its uint16 length, then 2.0.
std::string npy_prefix(Dtype dtype, bool fortran_order, const std::vector<std::size_t>& shape) {
  const std::string dict = "{'descr': '" + std::string(descr_of(dtype)) +
                           "', 'fortran_order': " + (fortran_order ? "True" : "False") +
                           ", 'shape': " + shape_text(shape) + ", }";
  for (const int major : {1, 2}) {
    const std::size_t length_width = major == 1 ? 2 : 4;
    const std::size_t unpadded = npy_magic.size() + 2 + length_width + dict.size() + 1;
    const std::size_t padding = (npy_alignment - unpadded % npy_alignment) % npy_alignment;
    const std::size_t header_length = dict.size() + padding + 1;
    if (major == 1 && header_length > std::numeric_limits<std::uint16_t>::max()) continue;
    std::string prefix(npy_magic);
    prefix += static_cast<char>(major);
    prefix += '\0';
    for (std::size_t i = 0; i < length_width; ++i)
      prefix += static_cast<char>((header_length >> (8 * i)) & 0xff);
    return prefix + dict + std::string(padding, ' ') + '\n';
  }
  throw internal_error("npy_prefix: header of " + std::to_string(dict.size()) +
                       " bytes does not fit a version 2.0 length");
}

void write_npy_in_parts(const fs::path& file, Dtype dtype, bool fortran_order, const std::vector<std::size_t>& shape,
                        const std::function<std::span<const unsigned char>()>& next_part) {
  const auto expected = byte_count(shape, dtype);
  if (!expected) throw internal_error("write_npy: no byte count for shape " + shape_text(shape));
  const std::string prefix = npy_prefix(dtype, fortran_order, shape);

  errno = 0;
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) fail(file, "cannot open for writing: " + system_reason());
  out.write(prefix.data(), static_cast<std::streamsize>(prefix.size()));
  for (std::size_t written = 0; written < *expected;) {
    const std::span<const unsigned char> part = next_part();
    if (part.empty() || part.size() > *expected - written)
      throw internal_error("write_npy: parts of " + std::to_string(written) + " + " + std::to_string(part.size()) +
                           " bytes for shape " + shape_text(shape) + " of " + std::string(to_string(dtype)));
    out.write(reinterpret_cast<const char*>(part.data()), static_cast<std::streamsize>(part.size()));
    written += part.size();
    if (!out) break;  // reported below, with the reason
  }
  // The last buffered bytes reach the file only at close, so a full disk may show only there.
  out.close();
  if (!out) fail(file, "write failed: " + system_reason());
}

namespace {

void write_npy(const fs::path& file, Dtype dtype, bool fortran_order,
               const std::vector<std::size_t>& shape, const void* data, std::size_t data_bytes) {
  const auto expected = byte_count(shape, dtype);
  if (!expected || *expected != data_bytes)
    throw internal_error("write_npy: " + std::to_string(data_bytes) + " bytes of data for shape " +
                         shape_text(shape) + " of " + std::string(to_string(dtype)));
  write_npy_in_parts(file, dtype, fortran_order, shape,
                     [&] { return std::span<const unsigned char>(static_cast<const unsigned char*>(data), data_bytes); });
}

NpyArray read_npy_array(NpySource& source, const fs::path& file) {
  const NpyHeader header = read_header(source, file);
  NpyArray array;
  array.dtype = header.dtype;
  array.fortran_order = header.fortran_order;
  array.shape = header.shape;
  array.bytes = allocate<unsigned char>(header.data_bytes, file);
  read_data(source, array.bytes, file);
  return array;
}

// The header of a tensor file, its shape checked.
NpyHeader read_tensor_header(NpySource& source, const fs::path& file, Structure structure) {
  const NpyHeader header = read_header(source, file);
  try {
    check_tensor_shape(header.shape, structure);
  } catch (const user_error& error) {
    fail(file, error.what());
  }
  return header;
}

AnyTensor read_tensor(NpySource& source, const fs::path& file, Structure structure) {
  const NpyHeader header = read_tensor_header(source, file, structure);
  if (is_complex(header.dtype))
    fail(file, "holds " + std::string(to_string(header.dtype)) +
                   " data, which runs through the complex path (diagonalize_complex, or the command, which "
                   "chooses it from the file)");
  if (header.dtype == Dtype::float32) return load_tensor<float>(source, header, file);
  return load_tensor<double>(source, header, file);
}

AnyComplexTensor read_complex_tensor(NpySource& source, const fs::path& file, Structure structure) {
  const NpyHeader header = read_tensor_header(source, file, structure);
  if (!is_complex(header.dtype))
    fail(file, "holds real " + std::string(to_string(header.dtype)) + " data where a complex tensor was expected");
  if (header.dtype == Dtype::complex64) return load_tensor<std::complex<float>>(source, header, file);
  return load_tensor<std::complex<double>>(source, header, file);
}

}  // namespace

NpyArray read_npy_array(const std::filesystem::path& path) {
  NpyFileSource source(path);
  return read_npy_array(source, path);
}

NpyArray read_npy_array(std::span<const unsigned char> bytes, const std::filesystem::path& name) {
  NpyMemorySource source(bytes);
  return read_npy_array(source, name);
}

void write_npy_array(const std::filesystem::path& path, const NpyArray& array) {
  write_npy(path, array.dtype, array.fortran_order, array.shape, array.bytes.data(),
            array.bytes.size());
}

AnyTensor read_tensor(const std::filesystem::path& path, Structure structure) {
  NpyFileSource source(path);
  return read_tensor(source, path, structure);
}

TensorShape read_tensor_shape(const std::filesystem::path& path, Structure structure) {
  NpyFileSource source(path);
  const NpyHeader header = read_tensor_header(source, path, structure);
  return {static_cast<int>(header.shape.size()), static_cast<int>(header.shape.front()), header.dtype,
          header.fortran_order ? Layout::fortran_order : Layout::c_order, header.data_offset};
}

AnyTensor read_tensor(std::span<const unsigned char> bytes, const std::filesystem::path& name) {
  NpyMemorySource source(bytes);
  return read_tensor(source, name, Structure::general);
}

AnyComplexTensor read_complex_tensor(const std::filesystem::path& path, Structure structure) {
  NpyFileSource source(path);
  return read_complex_tensor(source, path, structure);
}

struct NpyReader::State {
  std::filesystem::path file;
  NpyFileSource source;
  NpyHeader header;
  bool read = false;
  explicit State(const std::filesystem::path& path) : file(path), source(path), header(read_header(source, path)) {}
};

NpyReader::NpyReader(const std::filesystem::path& path) : state_(std::make_unique<State>(path)) {}
NpyReader::~NpyReader() = default;

Dtype NpyReader::dtype() const { return state_->header.dtype; }
bool NpyReader::fortran_order() const { return state_->header.fortran_order; }
const std::vector<std::size_t>& NpyReader::shape() const { return state_->header.shape; }

template <class T>
std::vector<T> NpyReader::values() {
  if (dtype_of<T>() != state_->header.dtype)
    throw internal_error("NpyReader::values: " + std::string(to_string(dtype_of<T>())) + " asked of a " +
                         std::string(to_string(state_->header.dtype)) + " file");
  if (state_->read) throw internal_error("NpyReader::values: the data was read already");
  state_->read = true;
  std::vector<T> values = allocate<T>(state_->header.data_bytes / sizeof(T), state_->file);
  read_data(state_->source, values, state_->file);
  return values;
}

void NpyReader::read_chunks(std::size_t chunk_bytes, const std::function<void(std::span<const unsigned char>)>& take) {
  if (state_->read) throw internal_error("NpyReader::read_chunks: the data was read already");
  state_->read = true;
  const std::size_t value_bytes = byte_count({1}, state_->header.dtype).value_or(1);
  const std::size_t chunk = std::max(value_bytes, chunk_bytes / value_bytes * value_bytes);
  std::vector<unsigned char> buffer =
      allocate<unsigned char>(std::min(chunk, state_->header.data_bytes), state_->file);
  for (std::size_t left = state_->header.data_bytes; left > 0;) {
    buffer.resize(std::min(chunk, left));
    read_data(state_->source, buffer, state_->file);
    take(buffer);
    left -= buffer.size();
  }
}

template <class T>
void write_vector(const std::filesystem::path& path, std::span<const T> values) {
  write_npy(path, dtype_of<T>(), false, {values.size()}, values.data(), values.size() * sizeof(T));
}

template std::vector<float> NpyReader::values<float>();
template std::vector<double> NpyReader::values<double>();
template void write_vector(const std::filesystem::path&, std::span<const float>);
template void write_vector(const std::filesystem::path&, std::span<const double>);

template <class T>
void write_tensor(const std::filesystem::path& path, const HostTensor<T>& tensor) {
  const std::vector<std::size_t> shape(static_cast<std::size_t>(tensor.order()),
                                       static_cast<std::size_t>(tensor.size()));
  write_npy(path, dtype_of<T>(), tensor.layout() == Layout::fortran_order, shape, tensor.data(),
            tensor.count() * sizeof(T));
}

template <class T>
void write_matrix(const std::filesystem::path& path, const Matrix<T>& matrix) {
  const auto n = static_cast<std::size_t>(matrix.n);
  write_npy(path, dtype_of<T>(), false, {n, n}, matrix.data.data(), matrix.data.size() * sizeof(T));
}

template void write_tensor(const std::filesystem::path&, const HostTensor<float>&);
template void write_tensor(const std::filesystem::path&, const HostTensor<double>&);
template void write_matrix(const std::filesystem::path&, const Matrix<float>&);
template void write_matrix(const std::filesystem::path&, const Matrix<double>&);
template void write_tensor(const std::filesystem::path&, const HostTensor<std::complex<float>>&);
template void write_tensor(const std::filesystem::path&, const HostTensor<std::complex<double>>&);
template void write_matrix(const std::filesystem::path&, const Matrix<std::complex<float>>&);
template void write_matrix(const std::filesystem::path&, const Matrix<std::complex<double>>&);

}  // namespace tensordiag::runtime
