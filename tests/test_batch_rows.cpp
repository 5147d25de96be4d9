// A stacked batch read a chunk at a time into its rows and written a part at a time from them
// (runtime/io/batch_rows.hpp, NpyReader::read_chunks, write_npy_in_parts): the same values in the
// same places as the whole array, for chunk and part sizes that cut rows and values anywhere.
#include <doctest/doctest.h>

#include <cstring>
#include <random>
#include <vector>

#include "runtime/core/errors.hpp"
#include "runtime/io/batch_rows.hpp"
#include "runtime/io/npy.hpp"
#include "scratch_dir.hpp"

using namespace tensordiag::runtime;

namespace {

// B rows of M seeded Gaussian values.
std::vector<std::vector<double>> random_rows(std::size_t rows, std::size_t length, unsigned seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> normal;
  std::vector<std::vector<double>> out(rows, std::vector<double>(length));
  for (auto& row : out)
    for (double& x : row) x = normal(random);
  return out;
}

// The stacked array's bytes in file order, written out by hand: row b's entry e at b M + e (C) or
// e B + b (Fortran).
std::vector<unsigned char> stacked_bytes(const std::vector<std::vector<double>>& rows, bool fortran_order) {
  const std::size_t count = rows.size(), length = rows.front().size();
  std::vector<double> values(count * length);
  for (std::size_t b = 0; b < count; ++b)
    for (std::size_t e = 0; e < length; ++e) values[fortran_order ? e * count + b : b * length + e] = rows[b][e];
  std::vector<unsigned char> bytes(values.size() * sizeof(double));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

std::vector<const double*> pointers(const std::vector<std::vector<double>>& rows) {
  std::vector<const double*> out;
  for (const auto& row : rows) out.push_back(row.data());
  return out;
}

}  // namespace

TEST_CASE("a batch's rows fill from chunks cut anywhere between values, in both orders") {
  for (const bool fortran_order : {false, true})
    for (const auto& [count, length] : {std::pair<std::size_t, std::size_t>{1, 5}, {3, 7}, {6, 64}, {11, 3}}) {
      const auto rows = random_rows(count, length, static_cast<unsigned>(count * 100 + length + fortran_order));
      const auto bytes = stacked_bytes(rows, fortran_order);
      for (const std::size_t chunk_values : {std::size_t{1}, std::size_t{2}, std::size_t{5}, length + 1, count * length}) {
        CAPTURE(fortran_order);
        CAPTURE(count);
        CAPTURE(length);
        CAPTURE(chunk_values);
        BatchRowFiller<double> filler(count, length, fortran_order);
        for (std::size_t at = 0; at < bytes.size(); at += chunk_values * sizeof(double))
          filler.take(std::span(bytes).subspan(at, std::min(chunk_values * sizeof(double), bytes.size() - at)));
        CHECK(std::move(filler).rows() == rows);
      }
    }
}

TEST_CASE("a batch's filler refuses bytes that are not whole values, too many values, or too few") {
  BatchRowFiller<double> torn(2, 3, false);
  const std::vector<unsigned char> seven(7);
  CHECK_THROWS_AS(torn.take(seven), tensordiag::internal_error);
  BatchRowFiller<double> over(2, 3, false);
  const std::vector<unsigned char> too_many(7 * sizeof(double));
  CHECK_THROWS_AS(over.take(too_many), tensordiag::internal_error);
  BatchRowFiller<double> short_of(2, 3, true);
  short_of.take(std::vector<unsigned char>(5 * sizeof(double)));
  CHECK_THROWS_AS(std::move(short_of).rows(), tensordiag::internal_error);
}

TEST_CASE("a batch's parts, in any part size, are the stacked array's bytes in file order") {
  for (const bool fortran_order : {false, true})
    for (const auto& [count, length] : {std::pair<std::size_t, std::size_t>{1, 5}, {4, 9}, {7, 2}}) {
      const auto rows = random_rows(count, length, static_cast<unsigned>(7 * count + length + fortran_order));
      const auto expected = stacked_bytes(rows, fortran_order);
      for (const std::size_t part_bytes : {std::size_t{1}, std::size_t{24}, std::size_t{100}, expected.size() * 2}) {
        CAPTURE(fortran_order);
        CAPTURE(count);
        CAPTURE(part_bytes);
        BatchRowParts<double> parts(pointers(rows), length, fortran_order, part_bytes);
        std::vector<unsigned char> got;
        while (got.size() < expected.size()) {
          const auto part = parts.next();
          REQUIRE_FALSE(part.empty());
          got.insert(got.end(), part.begin(), part.end());
        }
        CHECK(got == expected);
        CHECK_THROWS_AS(parts.next(), tensordiag::internal_error);
      }
    }
}

TEST_CASE("a stacked batch written in parts reads back whole, and through chunks of any size") {
  const tensordiag::testing::ScratchDir dir("batch_rows");
  for (const bool fortran_order : {false, true}) {
    const auto rows = random_rows(5, 27, fortran_order ? 31 : 32);
    write_batch_rows(dir.path() / "b.npy", pointers(rows), 27, {3, 3, 3}, fortran_order);
    const NpyArray whole = read_npy_array(dir.path() / "b.npy");
    CHECK(whole.shape == std::vector<std::size_t>{5, 3, 3, 3});
    CHECK(whole.fortran_order == fortran_order);
    CHECK(whole.bytes == stacked_bytes(rows, fortran_order));
    // 20 bytes are read as 16 (two whole float64 values), 1 as one value.
    for (const std::size_t chunk_bytes : {std::size_t{1}, std::size_t{20}, std::size_t{8 * 27}, std::size_t{1} << 20}) {
      CAPTURE(chunk_bytes);
      NpyReader reader(dir.path() / "b.npy");
      std::vector<unsigned char> got;
      std::size_t largest = 0;
      reader.read_chunks(chunk_bytes, [&](std::span<const unsigned char> chunk) {
        largest = std::max(largest, chunk.size());
        got.insert(got.end(), chunk.begin(), chunk.end());
      });
      CHECK(got == whole.bytes);
      CHECK(largest == std::min(whole.bytes.size(), std::max<std::size_t>(8, chunk_bytes / 8 * 8)));
      CHECK_THROWS_AS(reader.read_chunks(chunk_bytes, [](auto) {}), tensordiag::internal_error);
    }
    NpyReader reader(dir.path() / "b.npy");
    const auto back = read_batch_rows<double>(5, 27, fortran_order, file_feed(reader), dir.path() / "b.npy");
    CHECK(back == rows);
  }
}

TEST_CASE("write_npy_in_parts refuses parts past the shape's bytes, and an empty part") {
  const tensordiag::testing::ScratchDir dir("batch_rows");
  const std::vector<unsigned char> nine(9 * sizeof(float));
  CHECK_THROWS_AS(write_npy_in_parts(dir.path() / "x.npy", Dtype::float32, false, {2, 4},
                                     [&] { return std::span<const unsigned char>(nine); }),
                  tensordiag::internal_error);
  CHECK_THROWS_AS(write_npy_in_parts(dir.path() / "y.npy", Dtype::float32, false, {2, 4},
                                     [] { return std::span<const unsigned char>(); }),
                  tensordiag::internal_error);
}
