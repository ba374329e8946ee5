// The verdict on one region as `larm place` decides it (roofline/region_placement.h): what bounds
// it, the roof or ceiling used and the region's share of it, the runner-up, the evidence as typed
// facts and the next step. Every output — place's table, advise, profile, plot, the interactive
// roofline, the report — reads this record and none decides again; report/text/placement_text.h
// phrases it. place.json holds a list of them (format in results/SCHEMA.md, "Placements").
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/vocabulary.h"

namespace larm::results {

// place.json's "schema_version" (format "larm-place"); the bare list earlier larms wrote is
// refused.
// 1.1: what_if; 1.2: levels_modelled_for.
inline constexpr const char* kPlaceSchemaVersion = "1.2";

// What bounds a region.
enum class BoundKind {
  compute,      // a FLOP ceiling (of its own FP mix)
  cache,        // a cache level's bandwidth
  memory,       // a memory's bandwidth, as its data uses it (local, remote, contention...)
  hybrid,       // its own roof from the hybrid model (a fast and a slow memory)
  latency,      // memory accesses that cannot overlap (Little's law)
  unexplained,  // far below every roof with its misses overlapping: neither explains it
  above_roofs,  // above every roof: its counts or the roofs are off
  not_placed,   // no point to place (NotPlaced says why)
};

// Why a region has no point: no FLOPs or bytes counted, no time, no roof of its domain.
enum class NotPlaced { none, no_intensity, no_counts, no_time, no_roofs };

// Where a roof's value comes from.
enum class RoofSource {
  measured,    // the characterization's estimator over its samples
  fp_mix,      // the ceiling of the region's FP mix from the measured ceilings (method.md)
  data_mix,    // the memories holding its data, by their shares of its pages
  contention,  // its domain's share of the contention roofs of the domains running it at once
  hybrid,      // the hybrid model's prediction for its read share and data split
};

// A roof or ceiling as a verdict uses it.
struct RoofUsed {
  std::string name;  // as every output labels it: "L2 load", "local memory 0 (DRAM) 2ld1st"
  Level level = Level::L1;
  std::optional<Placement> placement;  // memory roofs
  std::optional<unsigned> memory;      // its OS index, memory roofs but congestion
  std::string memory_kind;
  Access access = Access::load;  // bandwidth roofs
  // Ceilings: the operation (a measured one) and the width; a mix ceiling has the shares below.
  FlopOp op = FlopOp::fma;
  Isa isa = Isa::sse2;
  Precision precision = Precision::dp;
  double value = 0;  // GB/s for a bandwidth roof, GFLOP/s for a ceiling
  RoofSource source = RoofSource::measured;
  std::string estimator;  // the characterization's (p90, median), for a measured roof
  // The interval of the value, absolute; none for a model's roof. tolerance: the larger side as a
  // fraction of value (a point within it of the roof cannot be told from one on it).
  std::optional<double> low, high;
  double tolerance = 0;
  bool misplaced = false;  // its pages were not where they were wanted

  bool ceiling() const { return level == Level::flops; }
  const char* unit() const { return ceiling() ? "GFLOP/s" : "GB/s"; }
  RoofKind kind() const { return roof_kind(level, placement); }
};

// A roof as the region uses it: its rate at the roof's level over the roof's value.
struct RoofShare {
  RoofUsed roof;
  double bytes = 0;  // at the roof's level (bandwidth roofs), in its byte convention
  double ai = 0;     // FLOPs ÷ bytes (bandwidth roofs; 0 for a ceiling)
  double rate = 0;   // GB/s at the level, GFLOP/s for a ceiling
  double share = 0;  // rate ÷ value
};

// Which bytes a region's bytes per level count, to match the roofs' kernels.
enum class ByteConvention {
  program_per_level,        // each level's lines fetched by loads and written back (write-allocate
                            // fetches left out): the bytes the roofs' loads and stores move
  per_level_with_allocate,  // counts of an older tool: write-allocate fetches included (more
                            // bytes than the roofs' kernels count for the same stores)
  core,                     // the core's loads and stores only (no bytes per level)
};

// Which access mix's roofs it stands against, and why.
enum class FamilyReason { option, read_only, split_unknown, nearest_mix };

// Its FLOPs by kind (shares of them) and the vector width that holds most of them.
struct FpMix {
  double add = 0, mul = 0, fma = 0, div = 0;  // add: add, sub, min, max; div: div and sqrt
  bool kinds_counted = false;                 // larm count's tool counted add, mul and div apart
  std::string width;                          // "scalar", "128-bit", "256-bit", "512-bit"
  std::optional<Isa> isa;                     // the ISA whose ceilings that width runs at
};

// The FP-mix ceiling at another width or with FMAs: where the region's work could go.
struct CeilingOption {
  Isa isa = Isa::sse2;
  bool fused = false;  // its multiplies and adds fused in pairs into FMAs
  double gflops = 0;
  double factor = 0;  // over the ceiling it stands against now
};

// Little's law on its memory lines: in flight per thread = lines fetched per second × the latency
// it pays ÷ threads. That latency is the idle one on its pages (the roof's on huge pages, or the
// base-page chase's), times the loaded-latency curve's rise at its bandwidth when there is one.
enum class LatencySource { idle_roof, loaded_curve };
// The pages its data is taken to be on: a plain allocation gets base pages unless transparent huge
// pages are "always" (the results' environment); the latency on base pages adds a page walk to
// each miss past the TLB's reach.
enum class PagesAssumed { huge, base };
struct LinesInFlight {
  double value = 0;
  double low = 0, high = 0;  // with the latency's and the time's spread
  double latency_ns = 0;
  LatencySource source = LatencySource::idle_roof;
  double idle_ns = 0;  // the memory latency roof (huge pages)
  PagesAssumed pages = PagesAssumed::huge;
  std::optional<double> base_page_ns;  // the memory's latency on base pages, when measured
  unsigned memory = 0;
  int threads = 0;
  // Its memory bandwidth on the loaded-latency curve, when the results have one: the curve's own
  // latency there and its idle point, whose ratio (at least 1) scales the idle latency.
  struct AtLoad {
    double gbps = 0, latency_ns = 0, idle_ns = 0, saturation_gbps = 0;
    int chase_domain = 0;
    std::string mix;
    bool beyond = false;
  };
  std::optional<AtLoad> at_load;
  // The verdict's thresholds (method.md): at most max_in_flight cannot overlap; under
  // min_in_flight memory latency explains little of its time.
  double max_in_flight = 0, min_in_flight = 0;
  enum class Reading { cannot_overlap, overlap, little, within_noise } reading = Reading::overlap;
  double straddled = 0;  // within_noise: the threshold its low-high range holds
};

// Where its tagged data sits and how its domains use it.
struct DataEvidence {
  std::map<unsigned, double> memory_fractions;  // OS index -> share of its pages
  std::vector<unsigned> local;                  // of those, the memories local to its domain
  std::optional<double> pages_apart;            // neighbouring pages on different memories
  std::optional<double> bytes;                  // the tagged ranges' bytes
  enum class Layout { one_memory, interleaved, blocks, spread } layout = Layout::one_memory;
  std::vector<int> concurrent_domains;  // the other domains running it at once
  bool concurrency_assumed = false;     // no times recorded: every domain taken as concurrent
  // Contention: the domains' bandwidths together against their roofs together.
  std::optional<double> together_gbps, together_roofs_gbps;
  // No roof was measured for this memory in the placement its use needs: no data roof.
  std::optional<unsigned> missing_memory;
  Placement missing_placement = Placement::local;
};

// The timing its rates rest on.
struct TimeEvidence {
  double seconds = 0;     // the region's time on its domain (the slowest thread's)
  std::string estimator;  // "median of 5 clean runs of 5"; "": one timed run
  double spread = 0;      // (max - min) / median of the runs the estimator takes
  int runs = 1;
  bool unstable = false;  // the runs differ more than the bound's interval allows
};

// What makes its numbers not what they seem.
struct UndercountWarning {
  int recorded_threads = 0;
  double busy_threads = 0;
};
struct SequentialInitWarning {
  unsigned memory = 0;       // where its pages all are
  double share = 0;          // of its pages
  std::vector<int> domains;  // the domains whose threads run it
  std::vector<std::string> handles;
};

// What lifts it, with the gain the measurements predict where they predict one.
enum class Step {
  vectorize_wider,          // the FP mix at a wider ISA (and fused, when `fused`)
  use_fma,                  // its multiplies and adds fused at the same width
  fewer_operations,         // at the widest ceiling: fewer FLOPs (the algorithm) lift it
  more_reuse,               // block for an inner cache level
  independent_accesses,     // more independent memory accesses per thread, prefetching
  huge_pages,               // the latency of base pages over huge pages' (TLB reach)
  bind_locally,             // first-touch it from its threads or bind it to their memory
  interleave,               // spread its pages over the memories (or first-touch in parallel)
  first_touch_in_parallel,  // each domain's part first-touched locally
  fast_memory_share,        // more of it on the fast memory (larm advise, larm hybrid weights)
  bind_threads,             // its threads changed CPU between calls
  investigate,              // nothing measured explains it
};
struct NextStep {
  Step step = Step::investigate;
  std::optional<double> gain;  // the bound's value it could reach over the current one
  std::optional<Isa> isa;      // vectorize_wider, use_fma: the ISA
  bool fused = false;          // vectorize_wider: with FMAs
  std::optional<Level> level;  // more_reuse: the level to block for
  std::string command;         // a line that applies it, where one does (numactl ...)
};

struct RegionPlacement {
  // The region.
  std::string file, label, region;
  int domain = 0;
  int threads = 0;
  std::optional<double> ai, gflops, gbps, flops;  // at the core (AI: FLOPs ÷ core bytes)
  std::string flops_source, bytes_source;
  // The decision.
  BoundKind kind = BoundKind::not_placed;
  NotPlaced not_placed = NotPlaced::none;
  std::string unavailable;        // not_placed no_intensity: what the records say is missing
  std::optional<RoofUsed> bound;  // latency: the memory roof it uses most; unexplained: the closest
  double share = 0;               // of the bound at its own intensity
  double roof_value_at_point = 0;      // GFLOP/s (GB/s when placed by bandwidth) at its intensity
  bool by_bandwidth = false;           // no FLOPs: placed by its GB/s against the bandwidth roofs
  std::vector<RoofShare> levels;       // every roof at its own intensity, most used first
  std::optional<RoofShare> runner_up;  // within the intervals of the bound: either may bound it
  std::vector<std::string> within_noise_of;  // the roofs the point is within the noise of
  ByteConvention bytes = ByteConvention::core;
  Access access = Access::load;
  FamilyReason family = FamilyReason::option;
  // Evidence.
  std::optional<FpMix> fp;
  std::optional<RoofUsed> widest_ceiling;  // the node's widest ISA at its mix, fused where it can
  std::vector<CeilingOption> ceiling_options;
  std::optional<double> read_share;
  std::optional<LinesInFlight> lines_in_flight;
  std::optional<DataEvidence> data;
  std::optional<RoofUsed> data_roof;
  std::optional<RoofUsed> hybrid_roof;
  std::string hybrid_note;         // the hybrid model's (roofline/hybrid_model.h)
  bool far_below = false;          // under half of the bound
  std::optional<double> above_by;  // its share past the bound's interval: which estimate is off
  bool stale_roof = false;  // its data too big for the caches, a little above its memory roof
  double cache_bytes = 0;   // the domain's cache capacity that judged it (stale_roof)
  bool migrated = false;
  TimeEvidence time;
  std::optional<UndercountWarning> undercount;
  std::optional<SequentialInitWarning> sequential_init;
  std::vector<NextStep> next;  // the first is the headline's
};

struct PlaceFile {
  std::string results;                  // the results directory placed against
  std::string access = "auto";          // --access
  Precision precision = Precision::dp;  // of the ceilings
  struct Absent {
    int domain = 0;
    std::string what;  // the roof kind and why: "remote: single NUMA node"
  };
  std::vector<Absent> absent;
  std::vector<RegionPlacement> regions;
  // Regions that ran on another host than the one the roofs were measured on (1.1): a what-if.
  struct WhatIf {
    std::string results_host;
    std::vector<std::string> regions_hosts;
  };
  std::optional<WhatIf> what_if;
  // The machine whose caches modelled the regions' bytes per level, when a count run modelled
  // another machine's than the one the regions ran on (1.2; larm count --results of that
  // machine); empty when they are the bytes of the machine they ran on.
  std::string levels_modelled_for;
};

nlohmann::json to_json(const RegionPlacement& placement);
nlohmann::json to_json(const PlaceFile& file);
// Throws std::runtime_error naming the problem (another format or schema version, a value out
// of range) when the document is not a place.json this larm reads.
PlaceFile place_from_json(const nlohmann::json& document);

}  // namespace larm::results

namespace larm {

template <>
struct Vocabulary<results::BoundKind> {
  static constexpr std::string_view what = "bound kind";
  static constexpr std::array<VocabularyEntry<results::BoundKind>, 8> entries{
      {{results::BoundKind::compute, "compute"},
       {results::BoundKind::cache, "cache"},
       {results::BoundKind::memory, "memory"},
       {results::BoundKind::hybrid, "hybrid"},
       {results::BoundKind::latency, "latency"},
       {results::BoundKind::unexplained, "unexplained"},
       {results::BoundKind::above_roofs, "above_roofs"},
       {results::BoundKind::not_placed, "not_placed"}}};
};
template <>
struct Vocabulary<results::NotPlaced> {
  static constexpr std::string_view what = "reason not placed";
  static constexpr std::array<VocabularyEntry<results::NotPlaced>, 5> entries{
      {{results::NotPlaced::none, "none"},
       {results::NotPlaced::no_intensity, "no_intensity"},
       {results::NotPlaced::no_counts, "no_counts"},
       {results::NotPlaced::no_time, "no_time"},
       {results::NotPlaced::no_roofs, "no_roofs"}}};
};
template <>
struct Vocabulary<results::RoofSource> {
  static constexpr std::string_view what = "roof source";
  static constexpr std::array<VocabularyEntry<results::RoofSource>, 5> entries{
      {{results::RoofSource::measured, "measured"},
       {results::RoofSource::fp_mix, "fp_mix"},
       {results::RoofSource::data_mix, "data_mix"},
       {results::RoofSource::contention, "contention_share"},
       {results::RoofSource::hybrid, "hybrid_model"}}};
};
template <>
struct Vocabulary<results::ByteConvention> {
  static constexpr std::string_view what = "byte convention";
  static constexpr std::array<VocabularyEntry<results::ByteConvention>, 3> entries{
      {{results::ByteConvention::program_per_level, "program_per_level"},
       {results::ByteConvention::per_level_with_allocate, "per_level_with_allocate"},
       {results::ByteConvention::core, "core"}}};
};
template <>
struct Vocabulary<results::FamilyReason> {
  static constexpr std::string_view what = "family reason";
  static constexpr std::array<VocabularyEntry<results::FamilyReason>, 4> entries{
      {{results::FamilyReason::option, "option"},
       {results::FamilyReason::read_only, "read_only"},
       {results::FamilyReason::split_unknown, "split_unknown"},
       {results::FamilyReason::nearest_mix, "nearest_mix"}}};
};
template <>
struct Vocabulary<results::LatencySource> {
  static constexpr std::string_view what = "latency source";
  static constexpr std::array<VocabularyEntry<results::LatencySource>, 2> entries{
      {{results::LatencySource::idle_roof, "idle_roof"},
       {results::LatencySource::loaded_curve, "loaded_curve"}}};
};
template <>
struct Vocabulary<results::PagesAssumed> {
  static constexpr std::string_view what = "pages";
  static constexpr std::array<VocabularyEntry<results::PagesAssumed>, 2> entries{
      {{results::PagesAssumed::huge, "huge"}, {results::PagesAssumed::base, "base"}}};
};
template <>
struct Vocabulary<results::LinesInFlight::Reading> {
  static constexpr std::string_view what = "lines in flight reading";
  static constexpr std::array<VocabularyEntry<results::LinesInFlight::Reading>, 4> entries{
      {{results::LinesInFlight::Reading::cannot_overlap, "cannot_overlap"},
       {results::LinesInFlight::Reading::overlap, "overlap"},
       {results::LinesInFlight::Reading::little, "little"},
       {results::LinesInFlight::Reading::within_noise, "within_noise"}}};
};
template <>
struct Vocabulary<results::DataEvidence::Layout> {
  static constexpr std::string_view what = "data layout";
  static constexpr std::array<VocabularyEntry<results::DataEvidence::Layout>, 4> entries{
      {{results::DataEvidence::Layout::one_memory, "one_memory"},
       {results::DataEvidence::Layout::interleaved, "interleaved"},
       {results::DataEvidence::Layout::blocks, "blocks"},
       {results::DataEvidence::Layout::spread, "spread"}}};
};
template <>
struct Vocabulary<results::Step> {
  static constexpr std::string_view what = "step";
  static constexpr std::array<VocabularyEntry<results::Step>, 12> entries{
      {{results::Step::vectorize_wider, "vectorize_wider"},
       {results::Step::use_fma, "use_fma"},
       {results::Step::fewer_operations, "fewer_operations"},
       {results::Step::more_reuse, "more_reuse"},
       {results::Step::independent_accesses, "independent_accesses"},
       {results::Step::huge_pages, "huge_pages"},
       {results::Step::bind_locally, "bind_locally"},
       {results::Step::interleave, "interleave"},
       {results::Step::first_touch_in_parallel, "first_touch_in_parallel"},
       {results::Step::fast_memory_share, "fast_memory_share"},
       {results::Step::bind_threads, "bind_threads"},
       {results::Step::investigate, "investigate"}}};
};

}  // namespace larm
