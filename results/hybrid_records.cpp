// The hybrid model's transfers and the quantities of a sample.
#include "results/hybrid_records.h"

namespace larm::hybrid {

const char* description(Transfer transfer) {
  static const char* const names[] = {"reads from the slow memory", "reads from the fast memory",
                                      "writes to the slow memory", "writes to the fast memory"};
  return names[static_cast<std::size_t>(transfer)];
}

PerTransfer quantities(double ratio_fast, double ratio_read, double total_bytes) {
  PerTransfer q;
  q[Transfer::lr] = total_bytes * ratio_read * ratio_fast;
  q[Transfer::ll] = total_bytes * ratio_read * (1 - ratio_fast);
  q[Transfer::er] = total_bytes * (1 - ratio_read) * ratio_fast;
  q[Transfer::el] = total_bytes * (1 - ratio_read) * (1 - ratio_fast);
  return q;
}

double Sample::ratio_fast() const {
  return (bytes[Transfer::lr] + bytes[Transfer::er]) / total_bytes();
}

double Sample::ratio_read() const {
  return (bytes[Transfer::ll] + bytes[Transfer::lr]) / total_bytes();
}

}  // namespace larm::hybrid
