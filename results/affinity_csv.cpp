// The affinity matrix CSV: numbers of bytes from 0 to 1e18, a square matrix.
#include "results/affinity_csv.h"

#include <sstream>
#include <stdexcept>
#include <string>

#include "results/input_file.h"

namespace larm::results {

AffinityMatrix read_affinity_csv(const std::filesystem::path& file) {
  std::istringstream in(read_input_file(file));
  AffinityMatrix m;
  std::string line;
  int row = 0;
  while (std::getline(in, line)) {
    ++row;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::vector<double> values;
    std::stringstream cells(line);
    std::string cell;
    int column = 0;
    while (std::getline(cells, cell, ',')) {
      ++column;
      std::size_t used = 0;
      double v = 0;
      try {
        v = std::stod(cell, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || cell.find_first_not_of(" \t\r", used) != std::string::npos ||
          !is_in_range(v) || v < 0) {
        throw std::runtime_error(file.string() + ": row " + std::to_string(row) + ", column " +
                                 std::to_string(column) + ": not a number of bytes from 0 to 1e18");
      }
      values.push_back(v);
    }
    m.push_back(values);
  }
  if (m.empty()) throw std::runtime_error(file.string() + ": no matrix");
  for (std::size_t i = 0; i < m.size(); ++i) {
    if (m[i].size() != m.size()) {
      throw std::runtime_error(file.string() + ": row " + std::to_string(i + 1) + " has " +
                               std::to_string(m[i].size()) + " values, not " +
                               std::to_string(m.size()) + " (threads × threads)");
    }
  }
  return m;
}

}  // namespace larm::results
