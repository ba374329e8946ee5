// Latency under load (the loaded-latency method of Intel MLC and the Mess benchmark): a pointer
// chase on one core while the team's other cores inject traffic to a memory at a controlled rate,
// a delay between their accesses, from none (the most they can) to an idle point without them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "kernels/drivers.h"
#include "kernels/sampler.h"

namespace larm::kernels {

// The injectors' accesses per step: lines read and lines written. Their read share: 1, 2/3, 1/2.
enum class InjectorMix { read_only, two_reads_one_write, one_read_one_write };
inline constexpr std::array<InjectorMix, 3> kInjectorMixes = {
    InjectorMix::read_only, InjectorMix::two_reads_one_write, InjectorMix::one_read_one_write};
double read_share(InjectorMix mix);
const char* name(InjectorMix mix);  // "1", "2:1", "1:1" (reads : writes)

struct LoadedLatencyRequest {
  std::vector<unsigned> chase_nodes;   // the chain's memory
  std::vector<unsigned> inject_nodes;  // the injectors' data
  std::uint64_t chain_bytes = 0;
  std::uint64_t injector_bytes = 0;  // per injector thread, all its streams together
  // One curve per mix, in this order, over one chain and one buffer per injector.
  std::vector<InjectorMix> mixes = {InjectorMix::read_only};
  // Iterations of a counting loop (a volatile counter: a few cycles each) between two injector
  // steps, one point each; the idle point (injectors still) comes first, then these.
  std::vector<std::uint32_t> delays;
  int samples = 11;               // chase samples per point
  double sample_seconds = 0.002;  // each sample's length, at least
  // On the sampling options' stop flag: return the points finished (interrupted set) rather than
  // throw Interrupted.
  bool keep_on_stop = false;
};

// The chase is watched as the roofs' samples are (kernels/interference.h): an interfered sample
// is re-taken after a pause, up to kMaxInterferedInARow in a row, then kept and counted. The
// injectors are watched over the whole point: one off its CPU (or waiting on a run queue) over
// kMaxOffCpuFraction of it ran below the rate asked; the point is then measured again, once.
struct LoadedLatencyPoint {
  std::optional<std::uint32_t> delay;  // none: the idle point
  std::vector<double> chase_ns;        // ns per dependent load, one per sample
  // The injectors' bytes over the chase's samples' time, all injectors together: lines read and
  // written × 64 bytes, as they count them (a written line's read for ownership not counted).
  double injector_gbps = 0;
  results::Interference interference;  // the chase's samples re-taken or kept, the point re-taken
  // Why the point stays disturbed (chase samples kept although interfered with, or injectors
  // still slowed after the point's re-take); empty when clean.
  std::string disturbed;
};

struct LoadedLatencyCurve {
  InjectorMix mix = InjectorMix::read_only;
  std::vector<LoadedLatencyPoint> points;  // the idle point first, then the delays
};

struct LoadedLatencyResult {
  std::vector<LoadedLatencyCurve> curves;  // one per mix of the request
  std::uint64_t chain_bytes = 0;           // the chain as run: whole lines
  double chain_placement = 0;              // pages on the chase's memories
  double injector_placement = 0;           // pages on the injectors' memories
  bool interrupted = false;  // stopped early (keep_on_stop): the curves hold the points finished
};

// Thread 0 of the team chases; every other thread injects. Throws std::runtime_error when the
// buffers cannot be had, std::invalid_argument for a team of one thread, no delays or no mixes,
// Interrupted when the sampling options' stop flag is set (checked between points) unless the
// request keeps what was finished.
LoadedLatencyResult measure_loaded_latency(const DriverContext& context, platform::ThreadTeam& team,
                                           const LoadedLatencyRequest& request);

}  // namespace larm::kernels
