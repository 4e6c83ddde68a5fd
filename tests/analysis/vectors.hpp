#pragma once
// Loads a vector file of /work/shared/spec/vectors at run time (never copied into the repo).

#include <boost/json.hpp>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace bh_test {

inline boost::json::array load_vectors(const std::string& file) {
  const std::string path = std::string(BH_TEST_DATA_DIR) + "/vectors/" + file;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return boost::json::parse(ss.str()).as_array();
}

inline double num(const boost::json::value& v) { return v.is_double() ? v.get_double() : double(v.to_number<std::int64_t>()); }

}  // namespace bh_test
