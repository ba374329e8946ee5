// The provenance block of a results file.
#include <unistd.h>

#include <chrono>
#include <ctime>

#include "characterize/characterize.h"
#include "codegen/isa.h"
#include "larm/build_info.h"
#include "platform/environment.h"

namespace larm::characterize {

results::Provenance make_provenance(const topology::Topology& topology,
                                    const platform::Clock& clock, const platform::CpuInfo& cpu,
                                    larm::Isa isa, bool quick, int samples) {
  const std::string host = platform::host_name();
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));

  const platform::EnvironmentReport environment = platform::read_environment(cpu);
  results::Provenance p;
  p.host = host;
  p.date = date;
  p.cpu_model = cpu.model_name;
  p.cpu_vendor = cpu.vendor;
  p.cpu_family = cpu.family;
  p.cpu_model_number = cpu.model;
  p.cpu_stepping = cpu.stepping;
  p.kernel = environment.values["kernel"].get<std::string>();
  p.compiler = LARM_CXX_COMPILER;
  p.compiler_flags = LARM_CXX_FLAGS;
  p.build_type = LARM_BUILD_TYPE;
  p.hwloc_version = topology::hwloc_runtime_version();
  p.topology_source = topology.source();
  p.larm_version = LARM_VERSION_STRING;
  p.git_commit = LARM_GIT_COMMIT;
  p.isa = isa;
  p.usable_isas = codegen::usable_isas();
  if (const auto sve = codegen::scalable_vector_bytes()) p.sve_vector_bits = 8L * *sve;
  p.clock_source = clock.source();
  if (clock.uses_tsc()) p.tsc_hz = clock.ticks_per_second();
  p.quick = quick;
  p.samples = samples;
  p.environment = environment.values;
  p.environment_warnings = environment.warnings;
  return p;
}

}  // namespace larm::characterize
