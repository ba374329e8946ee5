// The provenance block of a results file.
#include <unistd.h>

#include <chrono>
#include <ctime>

#include "characterize/characterize.h"
#include "codegen/isa.h"
#include "larm/build_info.h"
#include "platform/environment.h"

namespace larm::characterize {

nlohmann::json make_provenance(const topology::Topology& topology, const platform::Clock& clock,
                               const platform::CpuInfo& cpu, larm::Isa isa, bool quick,
                               int samples) {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));

  const platform::EnvironmentReport environment = platform::read_environment(cpu);
  nlohmann::json usable = nlohmann::json::array();
  for (larm::Isa i : codegen::usable_isas()) usable.push_back(codegen::name(i));

  return {
      {"host", host},
      {"date", date},
      {"cpu_model", cpu.model_name},
      {"cpu_vendor", cpu.vendor},
      {"cpu_family", cpu.family},
      {"cpu_model_number", cpu.model},
      {"cpu_stepping", cpu.stepping},
      {"kernel", environment.values["kernel"]},
      {"compiler", LARM_CXX_COMPILER},
      {"compiler_flags", LARM_CXX_FLAGS},
      {"build_type", LARM_BUILD_TYPE},
      {"hwloc_version", topology::hwloc_runtime_version()},
      {"topology_source", topology.source()},
      {"larm_version", LARM_VERSION_STRING},
      {"git_commit", LARM_GIT_COMMIT},
      {"isa", codegen::name(isa)},
      {"usable_isas", usable},
      {"clock_source", clock.source()},
      {"tsc_hz", clock.uses_tsc() ? nlohmann::json(clock.ticks_per_second()) : nlohmann::json()},
      {"quick", quick},
      {"samples", samples},
      {"environment", environment.values},
      {"environment_warnings", environment.warnings},
  };
}

}  // namespace larm::characterize
