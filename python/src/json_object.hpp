#pragma once
// A JSON value of the runtime's reports (nlohmann) as the Python object json.loads would give:
// objects become dicts (keys in order), arrays lists, numbers int or float, null None.
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace tensordiag::python {

namespace py = pybind11;

inline py::object json_object(const nlohmann::ordered_json& value) {
  switch (value.type()) {
    case nlohmann::ordered_json::value_t::object: {
      py::dict out;
      for (const auto& [key, item] : value.items()) out[py::str(key)] = json_object(item);
      return out;
    }
    case nlohmann::ordered_json::value_t::array: {
      py::list out;
      for (const auto& item : value) out.append(json_object(item));
      return out;
    }
    case nlohmann::ordered_json::value_t::string: return py::str(value.get<std::string>());
    case nlohmann::ordered_json::value_t::boolean: return py::bool_(value.get<bool>());
    case nlohmann::ordered_json::value_t::number_integer: return py::int_(value.get<std::int64_t>());
    case nlohmann::ordered_json::value_t::number_unsigned: return py::int_(value.get<std::uint64_t>());
    case nlohmann::ordered_json::value_t::number_float: return py::float_(value.get<double>());
    default: return py::none();
  }
}

}  // namespace tensordiag::python
