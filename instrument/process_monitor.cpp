#include "instrument/process_monitor.h"

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <exception>
#include <set>

#include "instrument/messages.h"
#include "instrument/monitor/default_monitors.h"
#include "instrument/monitor/trace_json.h"
#include "instrument/recorder.h"
#include "results/atomic_file.h"

namespace larm::instrument {
namespace {

void say(const std::string& text) {
  report(MessageKind::lifecycle, text);
}

}  // namespace

ProcessMonitor& process_monitor() {
  static ProcessMonitor* monitor = new ProcessMonitor;
  return *monitor;
}

bool ProcessMonitor::usable(const char* api) const {
  const pid_t owner = owner_.load();
  if (owner == 0) {
    say(std::string(api) + " before larm_monitor_init (or after larm_monitor_finalize): ignored");
    return false;
  }
  if (owner != ::getpid()) {
    say(std::string(api) + ": the monitors belong to process " + std::to_string(owner) +
        "; a fork()ed child does not sample them");
    return false;
  }
  return true;
}

double ProcessMonitor::since_start() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

int ProcessMonitor::init(const char* description, const char* out_dir) {
  if (const pid_t owner = owner_.load(); owner != 0 && owner != ::getpid()) {
    say("larm_monitor_init in a fork()ed child of a monitored process: refused");
    return -1;
  }
  std::lock_guard lifecycle(lifecycle_mutex_);
  if (owner_ != 0) {
    say("larm_monitor_init called twice: ignored");
    return -1;
  }
  if (finalized_) {
    say("larm_monitor_init after larm_monitor_finalize: monitoring again is not supported");
    return -1;
  }
  try {
    std::filesystem::path dir;
    if (out_dir != nullptr && *out_dir != '\0') {
      dir = out_dir;
    } else if (const char* from_env = std::getenv("LARM_OUT");
               from_env != nullptr && *from_env != '\0') {
      dir = from_env;
    } else {
      dir = std::filesystem::current_path();
    }
    auto topology = topology::Topology::load_live(topology::Topology::LiveScope::whole_machine);
    const bool by_default = description == nullptr || *description == '\0';
    std::string name = by_default ? "the default monitors" : description;
    std::vector<monitor::MonitorSpec> specs =
        by_default
            ? monitor::parse_description(monitor::default_description(topology.handle()), name)
            : monitor::read_description(description);
    auto linux_source = std::make_unique<monitor::LinuxSource>();
    linux_source->set_process(::getpid());
    auto region_source =
        std::make_unique<monitor::RegionSource>([] { return process_recorder().progress(); });
    std::map<std::string, monitor::EventSource*> sources = {{"linux", linux_source.get()},
                                                            {"region", region_source.get()}};
    std::unique_ptr<monitor::PapiSource> papi;
    for (const auto& spec : specs) {
      if (spec.source == "papi" && !papi) {
        papi = std::make_unique<monitor::PapiSource>();
        sources["papi"] = papi.get();
      }
    }
    auto set =
        std::make_unique<monitor::MonitorSet>(std::move(specs), topology.handle(), sources, name);
    results::ensure_writable_directory(std::filesystem::absolute(dir));
    auto trace = std::make_unique<monitor::TraceWriter>(dir / "trace.csv");

    out_dir_ = std::filesystem::absolute(dir);
    description_name_ = std::move(name);
    topology_.emplace(std::move(topology));
    linux_ = std::move(linux_source);
    regions_ = std::move(region_source);
    papi_ = std::move(papi);
    set_ = std::move(set);
    trace_ = std::move(trace);
    started_ = std::chrono::steady_clock::now();
    owner_ = ::getpid();
    static std::once_flag at_exit;
    std::call_once(at_exit, [] { std::atexit([] { process_monitor().finalize_at_exit(); }); });
    return 0;
  } catch (const std::exception& error) {
    say(std::string("larm_monitor_init: ") + error.what());
    return -1;
  }
}

void ProcessMonitor::sample(double seconds) {
  std::lock_guard samples(samples_mutex_);
  set_->update();
  trace_->write(seconds, *set_);
}

int ProcessMonitor::update() {
  if (!usable("larm_monitor_update")) return -1;
  std::lock_guard lifecycle(lifecycle_mutex_);
  if (!usable("larm_monitor_update")) return -1;
  try {
    sample(since_start());
    return 0;
  } catch (const std::exception& error) {
    say(std::string("larm_monitor_update: ") + error.what());
    return -1;
  }
}

int ProcessMonitor::sampling_start(double period_seconds) {
  if (!usable("larm_monitor_sampling_start")) return -1;
  std::lock_guard lifecycle(lifecycle_mutex_);
  if (!usable("larm_monitor_sampling_start")) return -1;
  if (!(period_seconds >= 0.001 && period_seconds <= 60)) {
    say("larm_monitor_sampling_start: a period of " + std::to_string(period_seconds) +
        " s is outside 0.001..60 s: refused");
    return -1;
  }
  if (sampler_) {
    say("larm_monitor_sampling_start while sampling: ignored");
    return -1;
  }
  try {
    const double offset = since_start();
    sampler_ = std::make_unique<monitor::Sampler>(
        *set_, std::chrono::microseconds(std::lround(period_seconds * 1e6)),
        [this, offset](double seconds, const monitor::MonitorSet& set) {
          trace_->write(offset + seconds, set);
        },
        &samples_mutex_);
    period_seconds_ = period_seconds;
    sampler_->start();
    if (sampler_->error()) std::rethrow_exception(sampler_->error());
    return 0;
  } catch (const std::exception& error) {
    sampler_.reset();
    say(std::string("larm_monitor_sampling_start: ") + error.what());
    return -1;
  }
}

int ProcessMonitor::sampling_stop() {
  if (!usable("larm_monitor_sampling_stop")) return -1;
  std::lock_guard lifecycle(lifecycle_mutex_);
  if (!usable("larm_monitor_sampling_stop")) return -1;
  if (!sampler_) {
    say("larm_monitor_sampling_stop while not sampling: ignored");
    return -1;
  }
  sampler_->stop();
  const std::exception_ptr error = sampler_->error();
  sampler_.reset();
  if (error) {
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      say(std::string("sampling ended early: ") + e.what());
    }
    return -1;
  }
  return 0;
}

int ProcessMonitor::get(const char* monitor, const char* object, const char* value, double* out) {
  if (!usable("larm_monitor_get")) return -1;
  std::lock_guard lifecycle(lifecycle_mutex_);
  if (!usable("larm_monitor_get")) return -1;
  if (monitor == nullptr || object == nullptr || value == nullptr || out == nullptr) {
    say("larm_monitor_get with a NULL argument: refused");
    return -1;
  }
  std::lock_guard samples(samples_mutex_);
  for (const monitor::MonitorInstance& m : set_->monitors()) {
    if (m.spec.name != monitor) continue;
    for (std::size_t o = 0; o < m.objects.size(); ++o) {
      if (monitor::object_name(m.objects[o]) != object) continue;
      for (std::size_t v = 0; v < m.value_names.size(); ++v) {
        if (m.value_names[v] == value) {
          *out = m.values[o][v];
          return 0;
        }
      }
    }
  }
  return -1;
}

int ProcessMonitor::finalize() {
  if (!usable("larm_monitor_finalize")) return -1;
  std::lock_guard lifecycle(lifecycle_mutex_);
  if (!usable("larm_monitor_finalize")) return -1;
  int status = 0;
  if (sampler_) {
    sampler_->stop();
    if (sampler_->error()) status = -1;
    sampler_.reset();
  }
  try {
    monitor::TraceContext context;
    context.description = description_name_;
    context.period_seconds = period_seconds_;
    context.time_zero_monotonic =
        std::chrono::duration<double>(started_.time_since_epoch()).count();
    context.program = "self";
    monitor::write_trace_json(out_dir_ / "trace.csv", *set_, context, out_dir_ / "trace.json");
  } catch (const std::exception& error) {
    say(std::string("larm_monitor_finalize: ") + error.what());
    status = -1;
  }
  trace_.reset();
  set_.reset();
  papi_.reset();
  regions_.reset();
  linux_.reset();
  topology_.reset();
  owner_ = 0;
  finalized_ = true;
  return status;
}

void ProcessMonitor::finalize_at_exit() {
  if (owner_.load() != ::getpid()) return;
  finalize();
}

}  // namespace larm::instrument
