// The monitors of larm/monitor.h inside the program: one set per process, instantiated on the
// live topology with the linux source following this process and the region source reading its
// region records (process_recorder().progress()), sampled on demand or by a Sampler, traced to
// OUT/trace.csv and, at finalize, OUT/trace.json.
//
// Locks: every call takes lifecycle_mutex_ (init, sampling start and stop, finalize, reads);
// every update, the sampler's included, takes samples_mutex_ as well. The sampler is stopped
// holding lifecycle_mutex_ only, so its last sample can take samples_mutex_. Each call checks the
// process against the owner before taking a lock (a fork()ed child may find one held by a thread
// it does not have) and again under it.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "instrument/monitor/linux_source.h"
#include "instrument/monitor/monitor_set.h"
#include "instrument/monitor/papi_source.h"
#include "instrument/monitor/region_source.h"
#include "instrument/monitor/sampler.h"
#include "instrument/monitor/trace.h"
#include "topology/topology.h"

namespace larm::instrument {

class ProcessMonitor {
 public:
  int init(const char* description, const char* out_dir);
  int update();
  int sampling_start(double period_seconds);
  int sampling_stop();
  int get(const char* monitor, const char* object, const char* value, double* out);
  int finalize();
  // The atexit handler: finalizes monitors left running, in the process that created them.
  void finalize_at_exit();

 private:
  // False, with a message, in a fork()ed child or before init.
  bool usable(const char* api) const;
  void sample(double seconds);
  double since_start() const;

  std::mutex lifecycle_mutex_;
  std::mutex samples_mutex_;
  std::atomic<pid_t> owner_{0};  // the process that called init; 0 before init and after finalize
  bool finalized_ = false;
  std::filesystem::path out_dir_;
  std::string description_name_;
  std::optional<topology::Topology> topology_;
  std::unique_ptr<monitor::LinuxSource> linux_;
  std::unique_ptr<monitor::RegionSource> regions_;
  std::unique_ptr<monitor::PapiSource> papi_;
  std::unique_ptr<monitor::MonitorSet> set_;
  std::unique_ptr<monitor::TraceWriter> trace_;
  std::unique_ptr<monitor::Sampler> sampler_;
  double period_seconds_ = 0;  // of the latest sampling, 0 when none ran
  std::chrono::steady_clock::time_point started_;
};

// Never destroyed (as the recorder): threads may call in during exit.
ProcessMonitor& process_monitor();

}  // namespace larm::instrument
