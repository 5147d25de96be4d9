#pragma once
// A comma-separated list of integers from a bench's command line ("1,2,4").
#include <sstream>
#include <string>
#include <vector>

namespace tensordiag::bench {

inline std::vector<int> int_list(const std::string& list) {
  std::vector<int> out;
  std::stringstream stream(list);
  for (std::string item; std::getline(stream, item, ',');) out.push_back(std::stoi(item));
  return out;
}

}  // namespace tensordiag::bench
