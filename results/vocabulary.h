// The words of larm's domain, typed once: access mixes, FP operations, precisions, instruction
// sets, memory levels, placements, statuses and memory references. Each enum has one table that
// gives its text in files, tables and options; records carry the enums and only the writers,
// readers and CLI parsers see the text. Adding an access pattern is one enum value and one table
// row (plus its kernel). No dependencies, so that every layer can use it.
#pragma once

#include <array>
#include <compare>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace larm {

// Memory access mixes of the bandwidth roofs (METHOD §2).
enum class Access { load, store, store_nt, copy, ld2st1 };
// FP instructions of the FLOP ceilings and mixed kernels.
// addmul: adds and multiplies in equal numbers on independent accumulators, the ceiling that says
// whether the core runs them on separate pipes (their sum) or shared ones.
enum class FlopOp { add, mul, fma, addmul };
enum class Precision { sp, dp };
// Instruction sets larm generates kernels for: x86-64's in increasing width, AArch64's (NEON, and
// SVE at the vector length the CPU runs), RISC-V's vector extension (RVV 1.0).
enum class Isa { sse2, avx, avx2, avx512, neon, sve, rvv };
// The vector width an ISA fixes, whatever machine reads a results file: 16, 32, 32, 64 and 16
// bytes; none for SVE and RVV, whose length is the CPU's (SVE: 128 to 2048 bits; RVV: VLEN, 32 to
// 65536).
constexpr std::optional<int> fixed_vector_bytes(Isa isa) {
  switch (isa) {
    case Isa::sse2:
    case Isa::neon:
      return 16;
    case Isa::avx:
    case Isa::avx2:
      return 32;
    case Isa::avx512:
      return 64;
    case Isa::sve:
    case Isa::rvv:
      return std::nullopt;
  }
  return std::nullopt;
}
// Where a roof's data lives: a CPU cache level (hwloc knows L1 to L5), a memory, or no data at
// all (FLOP ceilings).
enum class Level { L1, L2, L3, L4, L5, memory, flops };
// Who accesses which memory (memory level only, METHOD §2): the domain's own memory, another
// domain's, every core on one memory, every core on all memories interleaved.
enum class Placement { local, remote, contention, congestion };
// What a roof is, as the figures, `larm place` and `larm validate --placements` name it: a FLOP
// ceiling, a cache roof, or a memory roof by its placement.
enum class RoofKind { compute, cache, local, remote, contention, congestion };
// The state of a measurement. absent and not_applicable come with a reason (a separate string);
// misplaced may have one (how far the pages were from where they were wanted); indistinct has
// one (a cache level whose latency is within 15 % of the next level's: what was measured there is
// the next level).
enum class Status { ok, unstable, misplaced, absent, not_applicable, indistinct };
// How a roof's one value comes from its samples: the 90th percentile of its clean
// samples (the default: a roof is a bound the machine attains, and interference only slows), or
// the thesis' median.
enum class Estimator { p90, median };
// The size sweep a cache capacity comes from: the one-core pointer chase (sizes per
// cache instance; it sizes the latency runs) or the load bandwidth of every core of the domain
// (sizes per thread; it sizes the cache roofs).
enum class SizeSweep { latency, bandwidth };

template <typename E>
struct VocabularyEntry {
  E value;
  std::string_view text;
};

// The table of each enum, in the enum's order; `what` names the word in error messages.
template <typename E>
struct Vocabulary;

template <>
struct Vocabulary<Access> {
  static constexpr std::string_view what = "access";
  static constexpr std::array<VocabularyEntry<Access>, 5> entries{{{Access::load, "load"},
                                                                   {Access::store, "store"},
                                                                   {Access::store_nt, "store-nt"},
                                                                   {Access::copy, "copy"},
                                                                   {Access::ld2st1, "2ld1st"}}};
};
template <>
struct Vocabulary<FlopOp> {
  static constexpr std::string_view what = "operation";
  static constexpr std::array<VocabularyEntry<FlopOp>, 4> entries{{{FlopOp::add, "add"},
                                                                   {FlopOp::mul, "mul"},
                                                                   {FlopOp::fma, "fma"},
                                                                   {FlopOp::addmul, "addmul"}}};
};
template <>
struct Vocabulary<Precision> {
  static constexpr std::string_view what = "precision";
  static constexpr std::array<VocabularyEntry<Precision>, 2> entries{
      {{Precision::sp, "sp"}, {Precision::dp, "dp"}}};
};
template <>
struct Vocabulary<Isa> {
  static constexpr std::string_view what = "ISA";
  static constexpr std::array<VocabularyEntry<Isa>, 7> entries{{{Isa::sse2, "sse2"},
                                                                {Isa::avx, "avx"},
                                                                {Isa::avx2, "avx2"},
                                                                {Isa::avx512, "avx512"},
                                                                {Isa::neon, "neon"},
                                                                {Isa::sve, "sve"},
                                                                {Isa::rvv, "rvv"}}};
};
template <>
struct Vocabulary<Level> {
  static constexpr std::string_view what = "level";
  static constexpr std::array<VocabularyEntry<Level>, 7> entries{{{Level::L1, "L1"},
                                                                  {Level::L2, "L2"},
                                                                  {Level::L3, "L3"},
                                                                  {Level::L4, "L4"},
                                                                  {Level::L5, "L5"},
                                                                  {Level::memory, "memory"},
                                                                  {Level::flops, "flops"}}};
};
template <>
struct Vocabulary<Placement> {
  static constexpr std::string_view what = "placement";
  static constexpr std::array<VocabularyEntry<Placement>, 4> entries{
      {{Placement::local, "local"},
       {Placement::remote, "remote"},
       {Placement::contention, "contention"},
       {Placement::congestion, "congestion"}}};
};
template <>
struct Vocabulary<RoofKind> {
  static constexpr std::string_view what = "roof kind";
  static constexpr std::array<VocabularyEntry<RoofKind>, 6> entries{
      {{RoofKind::compute, "compute"},
       {RoofKind::cache, "cache"},
       {RoofKind::local, "local"},
       {RoofKind::remote, "remote"},
       {RoofKind::contention, "contention"},
       {RoofKind::congestion, "congestion"}}};
};
template <>
struct Vocabulary<Status> {
  static constexpr std::string_view what = "status";
  static constexpr std::array<VocabularyEntry<Status>, 6> entries{
      {{Status::ok, "ok"},
       {Status::unstable, "unstable"},
       {Status::misplaced, "misplaced"},
       {Status::absent, "absent"},
       {Status::not_applicable, "not_applicable"},
       {Status::indistinct, "indistinct"}}};
};

template <>
struct Vocabulary<Estimator> {
  static constexpr std::string_view what = "estimator";
  static constexpr std::array<VocabularyEntry<Estimator>, 2> entries{
      {{Estimator::p90, "p90"}, {Estimator::median, "median"}}};
};

template <>
struct Vocabulary<SizeSweep> {
  static constexpr std::string_view what = "sweep";
  static constexpr std::array<VocabularyEntry<SizeSweep>, 2> entries{
      {{SizeSweep::latency, "latency"}, {SizeSweep::bandwidth, "bandwidth"}}};
};

template <typename E>
concept VocabularyWord = requires {
  Vocabulary<E>::entries;
};

template <VocabularyWord E>
constexpr const char* name(E value) {
  return Vocabulary<E>::entries[static_cast<std::size_t>(value)].text.data();
}

template <VocabularyWord E>
constexpr std::optional<E> parse(std::string_view text) {
  for (const auto& entry : Vocabulary<E>::entries) {
    if (entry.text == text) return entry.value;
  }
  return std::nullopt;
}

// Every value, in the enum's order.
template <VocabularyWord E>
std::vector<E> all() {
  std::vector<E> values;
  for (const auto& entry : Vocabulary<E>::entries) values.push_back(entry.value);
  return values;
}

// Every word of the table, in order.
template <VocabularyWord E>
std::vector<std::string> words() {
  std::vector<std::string> texts;
  for (const auto& entry : Vocabulary<E>::entries) texts.emplace_back(entry.text);
  return texts;
}

// An optional word as the files write it: "" when absent.
template <VocabularyWord E>
constexpr const char* name_or_empty(const std::optional<E>& value) {
  return value ? name(*value) : "";
}

// "load, store, store-nt, copy, 2ld1st": the accepted words, for messages and --help.
template <VocabularyWord E>
std::string word_list(std::string_view separator = ", ") {
  std::string text;
  for (const auto& entry : Vocabulary<E>::entries) {
    if (!text.empty()) text += separator;
    text += entry.text;
  }
  return text;
}

// A word as a file wrote it; std::runtime_error naming the word, where it was read and the words
// accepted when it is none of them.
template <VocabularyWord E>
E parse_word(std::string_view text, std::string_view where) {
  const std::optional<E> value = parse<E>(text);
  if (!value) {
    throw std::runtime_error("bad " + std::string(Vocabulary<E>::what) + " '" + std::string(text) +
                             "' in " + std::string(where) + " (" + word_list<E>() + ")");
  }
  return *value;
}

// A memory (NUMA node) of the machine: its position in Topology::memories() and its OS index.
// Two references are the same memory when their OS indexes are: a reader of a results file
// without its topology knows the OS index only (index -1).
struct MemoryRef {
  int index = -1;
  unsigned os_index = 0;

  friend bool operator==(const MemoryRef& a, const MemoryRef& b) {
    return a.os_index == b.os_index;
  }
  std::string text() const { return std::to_string(os_index); }
};

// HBM or MCDRAM by a memory's kind (DRAM, HBM, MCDRAM, NVM...), case-insensitively: the one
// place larm decides which memories are high-bandwidth ones.
bool is_high_bandwidth_kind(const std::string& kind);

// The CPU cache level of an hwloc cache depth (1 to 5).
constexpr Level cache_level(int depth) {
  return static_cast<Level>(static_cast<int>(Level::L1) + depth - 1);
}
constexpr bool is_cache(Level level) {
  return level != Level::memory && level != Level::flops;
}

// The kind of a roof of this level (and placement, for memory roofs; local when none is given).
constexpr RoofKind roof_kind(Level level, std::optional<Placement> placement) {
  if (level == Level::flops) return RoofKind::compute;
  if (is_cache(level)) return RoofKind::cache;
  switch (placement.value_or(Placement::local)) {
    case Placement::local:
      return RoofKind::local;
    case Placement::remote:
      return RoofKind::remote;
    case Placement::contention:
      return RoofKind::contention;
    case Placement::congestion:
      break;
  }
  return RoofKind::congestion;
}

// A memory as the files write it: its OS index, "" for none.
inline std::string memory_text(const std::optional<MemoryRef>& memory) {
  return memory ? memory->text() : "";
}

// A measurement that counts (its samples spread more than wanted, or not): ok or unstable.
constexpr bool usable(Status status) {
  return status == Status::ok || status == Status::unstable;
}

// A status and its reason, as one text in the files: "ok", "unstable", "misplaced" or
// "misplaced: REASON", "indistinct: REASON", "not_applicable", and the bare reason for an absent
// measurement (the format of results.json since schema 1.0).
std::string status_text(Status status, const std::string& reason);
// The inverse: a text that is none of the words is the reason of an absent measurement.
std::pair<Status, std::string> parse_status_text(const std::string& text);

}  // namespace larm
