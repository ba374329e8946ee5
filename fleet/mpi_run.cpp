// `larm fleet` over MPI. Rank 0 writes; only one rank per node measures, the others wait without
// spinning (every wait below polls a request and sleeps, since blocking MPI calls spin a core
// that the node's measurement needs).
#include "fleet/mpi_run.h"

#include <mpi.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <map>
#include <set>
#include <thread>

#include "larm/build_info.h"
#include "platform/interrupt_guard.h"
#include "results/atomic_file.h"
#include "results/input_file.h"
#include "results/number_text.h"
#include "results/output_claim.h"
#include "results/printable_text.h"
#include "results/store.h"

namespace larm::fleet {
namespace {

constexpr int kNameBytes = 256;
constexpr int kTagHeader = 1;
constexpr int kTagFile = 2;
constexpr auto kPoll = std::chrono::milliseconds(20);
constexpr auto kInterruptGrace = std::chrono::seconds(5);
using Clock = std::chrono::steady_clock;

Clock::time_point after(double seconds) {
  return Clock::now() +
         std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// Waits for a request, sleeping between tests; false when the deadline passes or stop is set.
bool wait_politely(MPI_Request& request, std::optional<Clock::time_point> deadline,
                   const std::atomic<bool>* stop = nullptr) {
  for (;;) {
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return true;
    if ((deadline && Clock::now() > *deadline) || (stop != nullptr && stop->load())) return false;
    std::this_thread::sleep_for(kPoll);
  }
}

std::vector<char> padded_name(const std::string& name) {
  std::vector<char> buffer(kNameBytes, 0);
  std::copy_n(name.begin(), std::min<std::size_t>(name.size(), kNameBytes - 1), buffer.begin());
  return buffer;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return stamp;
}

// The synchronised steps: before each measurement every measuring rank joins an all-reduce of
// "I still run" (1); a rank that has finished joins with 0 until the sum is 0, so that nodes whose
// plans differ in length still meet at every step. A step that does not complete in time ends
// the job (a node hangs or died).
class Synchronizer {
 public:
  Synchronizer(MPI_Comm comm, double timeout_s) : comm_(comm), timeout_s_(timeout_s) {}
  int step(int running) {
    int sum = 0;
    MPI_Request request;
    MPI_Iallreduce(&running, &sum, 1, MPI_INT, MPI_SUM, comm_, &request);
    if (!wait_politely(request, after(timeout_s_))) {
      std::fprintf(stderr,
                   "larm: error: synchronised step %d not reached by every node in %.0f s "
                   "(--gather-timeout): ending the job\n",
                   steps_, timeout_s_);
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
    ++steps_;
    return sum;
  }
  void finish() {
    while (step(0) > 0) {
    }
  }
  int steps() const { return steps_; }

 private:
  MPI_Comm comm_;
  double timeout_s_;
  int steps_ = 0;
};

struct Roles {
  std::string host;
  bool measures = false;
  bool bound_cpus = false;  // other measuring ranks share this machine
};

Roles find_roles(int rank, const std::string& host) {
  Roles roles;
  roles.host = host;
  MPI_Comm shared;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared);
  int shared_rank = 0, shared_size = 0;
  MPI_Comm_rank(shared, &shared_rank);
  MPI_Comm_size(shared, &shared_size);
  std::vector<char> names(static_cast<std::size_t>(shared_size) * kNameBytes);
  MPI_Allgather(padded_name(roles.host).data(), kNameBytes, MPI_CHAR, names.data(), kNameBytes,
                MPI_CHAR, shared);
  std::set<std::string> distinct;
  int first_with_mine = -1;
  for (int r = 0; r < shared_size; ++r) {
    const std::string name(&names[static_cast<std::size_t>(r) * kNameBytes]);
    distinct.insert(name);
    if (name == roles.host && first_with_mine < 0) first_with_mine = r;
  }
  roles.measures = first_with_mine == shared_rank;
  roles.bound_cpus = distinct.size() > 1;
  MPI_Comm_free(&shared);
  return roles;
}

void send_report(const NodeReport& report, const std::filesystem::path& dir) {
  const std::string header = report_json(report).dump();
  std::vector<std::string> contents;
  for (const std::string& name : report.files) {
    contents.push_back(results::read_own_output(dir / name));
  }
  std::vector<MPI_Request> requests(1 + contents.size());
  MPI_Isend(header.data(), static_cast<int>(header.size()), MPI_CHAR, 0, kTagHeader, MPI_COMM_WORLD,
            &requests[0]);
  for (std::size_t i = 0; i < contents.size(); ++i) {
    MPI_Isend(contents[i].data(), static_cast<int>(contents[i].size()), MPI_CHAR, 0, kTagFile,
              MPI_COMM_WORLD, &requests[i + 1]);
  }
  // Rank 0 takes them when its own run is over: wait without spinning, however long that is.
  for (MPI_Request& r : requests) wait_politely(r, std::nullopt);
}

// Rank 0: one report, with its files written into the fleet directory.
NodeReport receive_report(const MPI_Status& probe, const std::filesystem::path& out) {
  int size = 0;
  MPI_Get_count(&probe, MPI_CHAR, &size);
  std::string header(static_cast<std::size_t>(size), '\0');
  MPI_Recv(header.data(), size, MPI_CHAR, probe.MPI_SOURCE, kTagHeader, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  nlohmann::json document = nlohmann::json::parse(header);
  results::make_printable(document);  // another node's text, shown here
  NodeReport report = report_from_json(document);
  if (!is_node_directory_name(report.node.host)) {
    throw std::runtime_error("a node name that is no directory name");
  }
  const std::filesystem::path dir = out / report.node.host;
  if (!report.files.empty()) results::ensure_output_subdirectory(dir);
  for (const std::string& name : report.files) {
    MPI_Status status;
    MPI_Probe(probe.MPI_SOURCE, kTagFile, MPI_COMM_WORLD, &status);
    MPI_Get_count(&status, MPI_CHAR, &size);
    std::string content(static_cast<std::size_t>(size), '\0');
    MPI_Recv(content.data(), size, MPI_CHAR, probe.MPI_SOURCE, kTagFile, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    // On a shared file system the node's own save is already there: not written twice. Each
    // file reaches the disk at the gather's end, in one flush for all.
    results::write_file_if_changed(dir / std::filesystem::path(name).filename(), content,
                                   results::Flush::later);
  }
  return report;
}

// Every rank's node name fits the fixed-size exchanges (kNameBytes) and is a directory name,
// or no rank measures: the lowest rank with a bad one is named. True when all are good.
bool node_names_are_good(int rank, int size, const std::string& own_host) {
  static_assert(kMaxNodeNameBytes < kNameBytes, "a node name and its terminating zero fit");
  const int own_bad = is_node_directory_name(own_host) ? size : rank;
  int first_bad = size;
  MPI_Allreduce(&own_bad, &first_bad, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first_bad < size && rank == first_bad) {
    std::fprintf(stderr,
                 "larm: error: rank %d's node name (%zu bytes) is not a directory name of 1 to "
                 "%zu letters, digits, '-', '_' and '.' (set LARM_FLEET_HOST to a shorter one)\n",
                 rank, own_host.size(), kMaxNodeNameBytes);
  }
  return first_bad == size;
}

// Rank 0 learns every rank's node and role, checks them and claims the fleet directory for the
// whole run; the other ranks learn only whether it could. Returns the measuring ranks and their
// nodes (rank 0), or the error every rank stops on.
struct Measuring {
  std::map<int, std::string> nodes;  // rank -> node (rank 0 only)
  std::string error;
};
Measuring learn_measuring_ranks(int rank, int size, const Roles& roles,
                                const std::filesystem::path& out, results::OutputClaim& claim) {
  std::vector<char> mine = padded_name(roles.host);
  mine.push_back(roles.measures ? 1 : 0);
  std::vector<char> all(rank == 0 ? static_cast<std::size_t>(size) * (kNameBytes + 1) : 0);
  MPI_Gather(mine.data(), kNameBytes + 1, MPI_CHAR, all.data(), kNameBytes + 1, MPI_CHAR, 0,
             MPI_COMM_WORLD);
  Measuring measuring;
  std::string& error = measuring.error;
  if (rank == 0) {
    std::map<std::string, int> seen;
    for (int r = 0; r < size; ++r) {
      const char* entry = &all[static_cast<std::size_t>(r) * (kNameBytes + 1)];
      if (entry[kNameBytes] == 0) continue;
      const std::string host(entry);
      if (seen.count(host)) {
        error = "ranks " + std::to_string(seen[host]) + " and " + std::to_string(r) +
                " both measure a node named " + host +
                " on different machines: give the machines distinct host names";
      }
      seen[host] = r;
      measuring.nodes[r] = host;
    }
    if (measuring.nodes.count(0) == 0) error = "rank 0 does not measure its node";
    if (std::filesystem::exists(out / kFleetFile)) {
      error = "a fleet already exists in " + out.string() + " (choose another --out)";
    }
    if (error.empty()) {
      try {
        claim = results::OutputClaim(out, "larm fleet");
      } catch (const std::runtime_error& e) {
        error = std::string("output directory: ") + e.what();
      }
    }
  }
  int error_size = static_cast<int>(error.size());
  MPI_Bcast(&error_size, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (error_size > 0 && rank != 0) error = "rank 0 stopped the run";  // rank 0 prints why
  return measuring;
}

// Rank 0's gather: the reports as they arrive, the fleet saved as it grows (throttled) and at
// the end, until every node answered, the timeout passed or Ctrl-C (then a few seconds' grace for
// the interrupted nodes' last reports).
class Gather {
 public:
  Gather(const FleetRunOptions& options, const std::map<int, std::string>& measuring,
         nlohmann::json provenance, bool quiet)
      : options_(options),
        measuring_(measuring),
        provenance_(std::move(provenance)),
        quiet_(quiet),
        out_(options.out) {}

  void add(int rank, NodeReport report) { reports_[rank] = std::move(report); }

  // Until every node answered, `timeout` seconds passed or the stop flag was set; the reason the
  // fleet is not complete (empty when it is).
  std::string wait(double timeout, const std::atomic<bool>& stop) {
    results::SaveThrottle throttle;
    auto deadline = after(timeout);
    interrupted_ = stop.load();
    if (interrupted_) {
      deadline = Clock::now() + kInterruptGrace;
      save_interrupted();
    } else {
      save("still gathering", false);
    }
    while (reports_.size() < measuring_.size()) {
      int arrived = 0;
      MPI_Status probe;
      MPI_Iprobe(MPI_ANY_SOURCE, kTagHeader, MPI_COMM_WORLD, &arrived, &probe);
      if (arrived) {
        receive(probe);
        if (throttle.due()) save("still gathering", false);
        continue;
      }
      if (stop.load() && !interrupted_) {
        // Interrupted nodes stop between samples and still report: a few seconds for them.
        interrupted_ = true;
        deadline = std::min(deadline, Clock::now() + kInterruptGrace);
        save_interrupted();
      }
      if (Clock::now() > deadline) break;
      std::this_thread::sleep_for(kPoll);
    }
    if (interrupted_) return interrupted_reason();
    if (missing() > 0) {
      char text[96];
      std::snprintf(text, sizeof text, "no answer after %.0f s (--gather-timeout)", timeout);
      return text;
    }
    return "";
  }

  // The fleet so far (reason: why it is not complete; empty when it is). Only the final save
  // reads what the unanswered nodes' own saves left: a whole results.json each, too slow to
  // parse for a thousand nodes every second while they arrive.
  Fleet save(const std::string& reason, bool final_save) {
    std::vector<NodeInput> inputs;
    for (const auto& [r, host] : measuring_) {
      const auto it = reports_.find(r);
      if (it != reports_.end()) {
        inputs.push_back({it->second.node, it->second.digest});
        continue;
      }
      NodeReport late = unanswered_node(host, r, out_ / host, reason, final_save);
      inputs.push_back({std::move(late.node), std::move(late.digest)});
    }
    Fleet fleet = compare_fleet(std::move(inputs), options_.rule);
    fleet.provenance = provenance_;
    fleet.complete = reason.empty();
    fleet.incomplete_reason = reason;
    save_fleet(out_, fleet);
    return fleet;
  }

  // Saved at once when interrupted, with what the unanswered nodes' own saves left: mpirun
  // may kill the ranks before the grace ends (Open MPI 4.1 sends SIGTERM 1 s after its Ctrl-C
  // and SIGKILL 1 s later, odls_base_sigkill_timeout), and the fleet must be on disk then.
  void save_interrupted() { save(interrupted_reason(), true); }

  std::string interrupted_reason() const {
    return missing() == 0 ? std::string("interrupted")
                          : "interrupted (" + std::to_string(missing()) + " nodes without answer)";
  }

  std::size_t missing() const {
    return measuring_.size() > reports_.size() ? measuring_.size() - reports_.size() : 0;
  }
  bool interrupted() const { return interrupted_; }

 private:
  void receive(const MPI_Status& probe) {
    try {
      NodeReport report = receive_report(probe, out_);
      report.node.rank = probe.MPI_SOURCE;
      if (!quiet_) {
        std::cout << report.node.host << " (rank " << probe.MPI_SOURCE
                  << "): " << name(report.node.outcome) << " in "
                  << results::minutes_text(report.node.seconds)
                  << (report.node.reason.empty() ? "" : ": " + report.node.reason) << "\n"
                  << std::flush;
      }
      reports_[probe.MPI_SOURCE] = std::move(report);
    } catch (const std::exception& e) {
      NodeReport bad;
      bad.node.host = measuring_.at(probe.MPI_SOURCE);
      bad.node.rank = probe.MPI_SOURCE;
      bad.node.outcome = NodeOutcome::failed;
      bad.node.reason = std::string("its report could not be read: ") + e.what();
      reports_[probe.MPI_SOURCE] = bad;
    }
  }

  const FleetRunOptions& options_;
  const std::map<int, std::string>& measuring_;
  const nlohmann::json provenance_;
  const bool quiet_;
  const std::filesystem::path out_;
  std::map<int, NodeReport> reports_;
  bool interrupted_ = false;
};

// The end of the job on every rank: a barrier without spinning (a rank whose node hangs would
// keep the job alive: rank 0 ends it instead), then MPI_Finalize.
void finish(MPI_Comm& measurers) {
  MPI_Request done;
  MPI_Ibarrier(MPI_COMM_WORLD, &done);
  wait_politely(done, std::nullopt);
  if (measurers != MPI_COMM_NULL) MPI_Comm_free(&measurers);
  MPI_Finalize();
}

}  // namespace

int run_fleet_mpi(const FleetRunOptions& options, bool quiet) {
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::string own_host = fleet_host_name(rank);
  if (!node_names_are_good(rank, size, own_host)) {
    MPI_Finalize();
    return 2;
  }
  const Roles roles = find_roles(rank, own_host);
  const std::filesystem::path out = options.out;
  results::OutputClaim claim;  // rank 0: the fleet directory, for the whole run
  const Measuring measuring = learn_measuring_ranks(rank, size, roles, out, claim);
  if (!measuring.error.empty()) {
    if (rank == 0) std::fprintf(stderr, "larm: error: %s\n", measuring.error.c_str());
    MPI_Finalize();
    return 2;
  }

  MPI_Comm measurers = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, roles.measures ? 0 : MPI_UNDEFINED, rank, &measurers);
  const double sync_timeout = options.gather_timeout.value_or(600);
  std::optional<Synchronizer> sync;
  if (options.synchronized && roles.measures) sync.emplace(measurers, sync_timeout);

  const platform::InterruptGuard interrupt(true);
  const std::filesystem::path node_dir = out / roles.host;
  const auto start = Clock::now();
  std::optional<NodeReport> own;
  if (roles.measures) {
    if (rank == 0 && !quiet) {
      std::cout << "larm fleet: " << measuring.nodes.size() << " nodes measure, " << size
                << " ranks" << (options.synchronized ? ", synchronised steps" : "") << "\n"
                << std::flush;
    }
    auto on_progress = [&](const characterize::ProgressEvent&) {
      if (sync) sync->step(1);
    };
    own = measure_node(options, roles.host, rank, roles.bound_cpus, node_dir, interrupt.stop_flag(),
                       on_progress);
    if (sync) sync->finish();
    if (rank != 0) send_report(*own, node_dir);
  }
  if (rank != 0) {
    // Wait for rank 0 to finish without spinning; if it ends the job, this ends with it.
    finish(measurers);
    return 0;
  }

  // Rank 0: gather until every node answered, the timeout passes or Ctrl-C.
  const double own_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const double timeout = options.gather_timeout.value_or(default_gather_timeout(own_seconds));
  nlohmann::json provenance = {{"larm_version", LARM_VERSION_STRING},
                               {"git_commit", LARM_GIT_COMMIT},
                               {"date", utc_now()},
                               {"ranks", size},
                               {"measuring_ranks", measuring.nodes.size()},
                               {"synchronized", options.synchronized},
                               {"gather_timeout_s", timeout}};
  provenance.update(options.request);  // quick, only, domains
  if (sync) provenance["synchronized_steps"] = sync->steps();
  Gather gather(options, measuring.nodes, std::move(provenance), quiet);
  gather.add(0, *own);
  if (!quiet) {
    std::cout << own->node.host << " (rank 0): " << name(own->node.outcome) << " in "
              << results::minutes_text(own->node.seconds) << "\n"
              << std::flush;
  }
  const std::string reason = gather.wait(timeout, *interrupt.stop_flag());
  results::sync_file_system(out);
  const Fleet fleet = gather.save(reason, true);
  if (!quiet && options.on_gathered) options.on_gathered(fleet);
  std::cout << "Fleet: " << out.string() << "\n" << std::flush;
  if (gather.missing() > 0) {
    // Ranks that hang would keep the job alive: end it (what every node saved stays).
    std::fprintf(stderr, "larm: %s; ending the job\n", reason.c_str());
    MPI_Abort(MPI_COMM_WORLD, gather.interrupted() ? 130 : 1);
  }
  finish(measurers);
  bool failures = false;
  for (const FleetNode& n : fleet.nodes) failures = failures || n.outcome != NodeOutcome::complete;
  return gather.interrupted() ? 130 : failures ? 1 : 0;
}

}  // namespace larm::fleet
