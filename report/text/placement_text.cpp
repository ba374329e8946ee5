// Verdicts in words.
#include "report/text/placement_text.h"

#include <algorithm>
#include <sstream>

#include "results/number_text.h"
#include "results/printable_text.h"
#include "results/statistics.h"

namespace larm::text {
// Its helpers in a namespace of its own: the sanitizer builds compile report/text as one unit.
namespace verdict_words {

using results::BoundKind;
using results::RegionPlacement;
using results::RoofUsed;

std::string number(double value) {
  return results::format_number("%.3g", value);
}
std::string percent(double fraction) {
  return results::percent_text(fraction, 0);
}
std::string gain_text(const std::optional<double>& gain) {
  return gain ? " (up to x" + results::fixed_text(*gain, 1) + ")" : "";
}

// "0, 1 and 2".
std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (std::size_t i = 0; i < items.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  }
  return text;
}
template <typename T>
std::vector<std::string> texts(const std::vector<T>& values) {
  std::vector<std::string> out;
  for (const T& v : values) out.push_back(std::to_string(v));
  return out;
}

std::string roof_value(const RoofUsed& r) {
  return results::table_value_text(r.value) + " " + r.unit();
}

// What kind of roof: "ceiling" for FLOPs, else "roof".
const char* roof_word(const RoofUsed& r) {
  return r.ceiling() ? "ceiling" : "roof";
}

// "compute-bound", "L2-bound", "memory-bound", "bound by remote memory"...
std::string bound_phrase(const RegionPlacement& p) {
  switch (p.kind) {
    case BoundKind::compute:
      return "compute-bound";
    case BoundKind::cache:
      return std::string(name(p.bound->level)) + "-bound";
    case BoundKind::memory:
      switch (p.bound->placement.value_or(Placement::local)) {
        case Placement::local:
          return "memory-bound";
        case Placement::remote:
          return "bound by remote memory";
        case Placement::contention:
          return "bound by contention on memory " +
                 (p.bound->memory ? std::to_string(*p.bound->memory) : std::string("?"));
        case Placement::congestion:
          return "bound by congestion";
      }
      break;
    case BoundKind::hybrid:
      return "bound by its hybrid roof";
    case BoundKind::latency:
      return "latency-bound";
    case BoundKind::unexplained:
      return "neither a roof nor latency";
    case BoundKind::above_roofs:
      return "above every roof";
    case BoundKind::not_placed:
      break;
  }
  return "not placed";
}

std::string not_placed_text(const RegionPlacement& p) {
  switch (p.not_placed) {
    case results::NotPlaced::no_intensity:
      return p.unavailable.empty() ? "no arithmetic intensity" : p.unavailable;
    case results::NotPlaced::no_counts:
      return "no FLOPs and no bytes moved";
    case results::NotPlaced::no_time:
      return "no time recorded";
    case results::NotPlaced::no_roofs:
      return "the results have no roof for domain " + std::to_string(p.domain);
    case results::NotPlaced::none:
      break;
  }
  return "no point";
}

// Which estimate is off when it stands above its bound beyond the interval.
std::string above_cause(const RegionPlacement& p, bool short_form) {
  if (p.bound && p.bound->ceiling()) {
    return short_form ? "ceiling low"
                      : "the ceiling's kernel reached less than this code does, or its FLOPs "
                        "are counted high";
  }
  if (p.bytes == results::ByteConvention::core) {
    return short_form ? "roof measured low"
                      : "the roof was measured lower than this run reached (larm doctor)";
  }
  return short_form ? "roof low or model's bytes high"
                    : "the roof was measured lower than this run reached (larm doctor), or the "
                      "cache model moved more bytes than the hardware did (a larger effective "
                      "cache, a prefetcher's reuse)";
}

std::string lines_text(const results::LinesInFlight& l) {
  return results::fixed_text(l.value, 1) + " lines in flight per thread";
}

std::string source_text(const RoofUsed& r) {
  switch (r.source) {
    case results::RoofSource::measured:
      return r.estimator + " of its samples";
    case results::RoofSource::fp_mix:
      return "the ceiling of its FP mix from the measured add, mul, fma and addmul ceilings "
             "(method.md)";
    case results::RoofSource::data_mix:
      return "its data's memories by their shares of its pages";
    case results::RoofSource::contention:
      return "its domain's share of the contention roofs of the domains running it at once";
    case results::RoofSource::hybrid:
      return "the hybrid model for its read share and its data's split";
  }
  return "";
}

std::string interval_text(const RoofUsed& r) {
  if (!r.low || !r.high) return "";
  return ", interval " + results::table_value_text(*r.low) + " - " +
         results::table_value_text(*r.high);
}

std::string latency_text(const results::LinesInFlight& l) {
  const std::string idle =
      l.pages == results::PagesAssumed::base
          ? "memory " + std::to_string(l.memory) +
                "'s latency on base pages (a page walk on each miss past the TLB's reach), " +
                results::fixed_text(l.base_page_ns.value_or(0), 1) + " ns against " +
                results::fixed_text(l.idle_ns, 1) + " ns on huge pages"
          : "the memory latency roof, " + results::fixed_text(l.idle_ns, 1) + " ns";
  if (!l.at_load) return idle;
  const auto& a = *l.at_load;
  const double rise = a.idle_ns > 0 ? a.latency_ns / a.idle_ns : 0;
  return idle + ", x" + results::fixed_text(std::max(1.0, rise), 2) + " at its " +
         results::fixed_text(a.gbps, 1) + " GB/s on the loaded-latency curve (mix " + a.mix +
         " from domain " + std::to_string(a.chase_domain) + ": " +
         results::fixed_text(a.latency_ns, 1) + " ns against its idle " +
         results::fixed_text(a.idle_ns, 1) + " ns" +
         (a.beyond ? "; past the most its injectors reached, " +
                         results::fixed_text(a.saturation_gbps, 1) + " GB/s: at least that"
                   : "") +
         "): " + results::fixed_text(l.latency_ns, 1) + " ns";
}

std::string reading_text(const results::LinesInFlight& l) {
  using Reading = results::LinesInFlight::Reading;
  switch (l.reading) {
    case Reading::cannot_overlap:
      return "at most " + number(l.max_in_flight) +
             ": its misses cannot overlap, they wait on each other";
    case Reading::overlap:
      return "over " + number(l.max_in_flight) + ": its misses overlap";
    case Reading::little:
      return "under " + number(l.min_in_flight) + ": memory latency explains little of its time";
    case Reading::within_noise:
      return "within the noise of " + number(l.straddled) +
             ": latency or bandwidth, the measurements cannot tell";
  }
  return "";
}

std::string family_text(const RegionPlacement& p) {
  const std::string roofs = std::string("against the ") + name(p.access) + " roofs";
  switch (p.family) {
    case results::FamilyReason::option:
      return roofs + " (--access)";
    case results::FamilyReason::read_only:
      return roofs + ": it only reads";
    case results::FamilyReason::split_unknown:
      return roofs + ": its read/write split is unknown";
    case results::FamilyReason::nearest_mix:
      return roofs + ": the measured mix nearest its " +
             (p.read_share ? percent(*p.read_share) : std::string("?")) + " of bytes read";
  }
  return roofs;
}

std::string bytes_text(const RegionPlacement& p) {
  switch (p.bytes) {
    case results::ByteConvention::program_per_level:
      return "bytes per level: the lines each level serves its loads and the lines written back "
             "to it, write-allocate fetches left out, as the roofs' kernels count their own loads "
             "and stores";
    case results::ByteConvention::per_level_with_allocate:
      return "bytes per level include write-allocate fetches (an older larm count's counts): "
             "more than the roofs count for the same stores";
    case results::ByteConvention::core:
      break;
  }
  return "bytes: the core's loads and stores (no bytes per level: larm count's cache model "
         "gives them); its bound is the lowest roof above its point, its data's size deciding "
         "between a cache and memory";
}

std::string data_text(const RegionPlacement& p) {
  if (!p.data) return "data not tagged (larm_region_data): its memory taken as local";
  const results::DataEvidence& d = *p.data;
  std::vector<std::pair<double, unsigned>> shares;
  for (const auto& [memory, fraction] : d.memory_fractions) shares.emplace_back(fraction, memory);
  std::sort(shares.rbegin(), shares.rend());
  std::string text = "data: ";
  for (std::size_t i = 0; i < shares.size(); ++i) {
    const bool local = std::find(d.local.begin(), d.local.end(), shares[i].second) != d.local.end();
    text += (i ? ", " : "") + percent(shares[i].first) + " on memory " +
            std::to_string(shares[i].second) + (local ? " (local)" : " (remote)");
  }
  std::vector<std::string> domains = texts(d.concurrent_domains);
  domains.insert(domains.begin(), std::to_string(p.domain));
  const std::string together =
      "domains " + joined(domains) + " run it at once" +
      (d.concurrency_assumed ? " (assumed: the records give no times)" : "");
  using Layout = results::DataEvidence::Layout;
  const std::string apart =
      d.pages_apart ? percent(*d.pages_apart) + " of neighbouring pages on different memories"
                    : "shares near even";
  if (d.layout == Layout::interleaved) {
    text += "; interleaved (" + apart + ") and " + together + ": the congestion roof";
  } else if (d.layout == Layout::blocks) {
    text += "; in blocks (" + apart + "), one per domain running it: its own part is local";
  } else if (!d.concurrent_domains.empty()) {
    text += "; " + together;
    if (d.together_gbps && d.together_roofs_gbps) {
      text += ": " + results::fixed_text(*d.together_gbps, 1) + " GB/s together, against " +
              results::fixed_text(*d.together_roofs_gbps, 1) +
              " GB/s their contention roofs allow together";
    }
  }
  if (d.missing_memory) {
    text += "; no " + std::string(name(d.missing_placement)) + " roof measured for memory " +
            std::to_string(*d.missing_memory) + ": no data roof";
  }
  if (p.stale_roof && p.data_roof && p.bound && p.roof_value_at_point > 0) {
    text += "; " + percent(p.share - 1) +
            " above the roof of the memory holding its data, which is too big for the caches (" +
            results::fixed_text((d.bytes ? *d.bytes : 0) / 1048576, 1) + " MiB against " +
            results::fixed_text(p.cache_bytes / 1048576, 1) +
            " MiB): that roof was measured lower than this run reached (larm doctor)";
  }
  return text;
}

std::string fp_text(const RegionPlacement& p) {
  if (!p.fp) {
    return p.bound && p.bound->ceiling()
               ? "FLOPs " + p.flops_source +
                     ", not counted by kind or width: against the node's peak, " + p.bound->name +
                     " (larm count counts them)"
               : "";
  }
  const results::FpMix& f = *p.fp;
  std::string text = "FLOPs: " + percent(f.add) + " add, " + percent(f.mul) + " mul, " +
                     percent(f.fma) + " in FMAs";
  if (f.div >= 0.005) text += ", " + percent(f.div) + " div/sqrt";
  text +=
      std::string(f.kinds_counted ? " (larm count)"
                                  : " (adds and multiplies not counted apart: taken as equal)") +
      "; most of them " + f.width;
  if (f.isa) text += std::string(" (the ") + name(*f.isa) + " ceilings)";
  if (f.div >= 0.05) {
    text +=
        "; divisions and square roots have no measured ceiling: its ceiling is of the rest, "
        "an upper bound";
  }
  if (p.widest_ceiling && p.bound && p.bound->ceiling() && p.bound->value > 0) {
    text += "; at the node's widest ISA: " + p.widest_ceiling->name + " " +
            roof_value(*p.widest_ceiling) + " (x" +
            results::fixed_text(p.widest_ceiling->value / p.bound->value, 1) + ")";
  }
  return text;
}

// A step in a few words, for the headline: "avx512+FMA (up to x4.8)".
std::string short_step(const results::NextStep& s) {
  using results::Step;
  std::string words;
  switch (s.step) {
    case Step::vectorize_wider:
      words = std::string(s.isa ? name(*s.isa) : "wider") + (s.fused ? "+FMA" : "");
      break;
    case Step::use_fma:
      words = "FMAs";
      break;
    case Step::fewer_operations:
      words = "fewer FLOPs";
      break;
    case Step::more_reuse:
      words = s.level && !(*s.level == Level::L1 && !s.gain)
                  ? std::string("reuse in ") + name(*s.level)
                  : std::string("reuse in registers");
      break;
    case Step::independent_accesses:
      words = "independent accesses";
      break;
    case Step::huge_pages:
      words = "huge pages";
      break;
    case Step::bind_locally:
      words = "local data";
      break;
    case Step::interleave:
      words = "interleave";
      break;
    case Step::first_touch_in_parallel:
      words = "parallel first touch";
      break;
    case Step::fast_memory_share:
      words = "more on fast memory";
      break;
    case Step::bind_threads:
      words = "bind threads";
      break;
    case Step::investigate:
      words = "look past the roofs";
      break;
  }
  return words + gain_text(s.gain);
}

void add(std::vector<std::string>& lines, const std::string& text) {
  if (!text.empty()) lines.push_back(text);
}

}  // namespace verdict_words

std::vector<std::string> wrap(const std::string& text, std::size_t width, std::size_t indent) {
  using namespace verdict_words;
  std::vector<std::string> lines;
  std::string line;
  std::istringstream words(text);
  std::string word;
  while (words >> word) {
    const std::size_t room = line.empty() ? 0 : results::display_length(line) + 1;
    if (!line.empty() && room + results::display_length(word) > width) {
      lines.push_back(line);
      line = std::string(indent, ' ');
    } else if (!line.empty() && line.find_first_not_of(' ') != std::string::npos) {
      line += ' ';
    }
    line += word;
  }
  if (line.find_first_not_of(' ') != std::string::npos) lines.push_back(line);
  return lines;
}

std::string bound_word(const results::RegionPlacement& p) {
  using namespace verdict_words;
  switch (p.kind) {
    case BoundKind::compute:
      return "compute";
    case BoundKind::cache:
      return name(p.bound->level);
    case BoundKind::memory: {
      const Placement placement = p.bound->placement.value_or(Placement::local);
      return placement == Placement::local    ? "memory local"
             : placement == Placement::remote ? "memory remote"
                                              : name(placement);
    }
    case BoundKind::hybrid:
      return "hybrid";
    case BoundKind::latency:
      return "latency";
    case BoundKind::unexplained:
      return "unexplained";
    case BoundKind::above_roofs:
      return "above roofs";
    case BoundKind::not_placed:
      break;
  }
  return "not placed";
}

std::string next_step_text(const results::NextStep& s) {
  using namespace verdict_words;
  using results::Step;
  switch (s.step) {
    case Step::vectorize_wider:
      return std::string("vectorize for ") + (s.isa ? name(*s.isa) : "a wider ISA") +
             (s.fused ? " with FMAs" : "") + gain_text(s.gain);
    case Step::use_fma:
      return "fuse its multiplies and adds into FMAs" + gain_text(s.gain);
    case Step::fewer_operations:
      return "fewer FLOPs (it runs its mix at the widest ceiling measured)";
    case Step::more_reuse:
      return !s.level ? "more reuse in cache"
             : *s.level == Level::L1 && !s.gain
                 ? "more reuse in registers"
                 : std::string("more reuse in ") + name(*s.level) + gain_text(s.gain);
    case Step::independent_accesses:
      return "more independent accesses" + gain_text(s.gain);
    case Step::huge_pages:
      return "huge pages (TLB reach)" + gain_text(s.gain);
    case Step::bind_locally:
      return "first-touch its data from its threads, or bind it locally" + gain_text(s.gain);
    case Step::interleave:
      return "interleave its pages, or first-touch them in parallel" + gain_text(s.gain);
    case Step::first_touch_in_parallel:
      return "first-touch each domain's part in parallel" + gain_text(s.gain);
    case Step::fast_memory_share:
      return "more of its data on the fast memory (larm advise ranks the shares)";
    case Step::bind_threads:
      return "bind its threads (OMP_PROC_BIND): they changed CPU between calls";
    case Step::investigate:
      return "look past the roofs (TLB reach, instruction mix, imbalance)";
  }
  return "";
}

std::string time_text(const results::RegionPlacement& p) {
  using namespace verdict_words;
  return results::format_number("%.4g", p.time.seconds) + " s (" +
         (p.time.estimator.empty() ? std::string("one timed run") : p.time.estimator) + ")";
}

std::string headline(const results::RegionPlacement& p) {
  using namespace verdict_words;
  std::string head = p.time.unstable ? "[unstable] " : "";
  if (p.kind == BoundKind::not_placed) return head + "not placed: " + not_placed_text(p);
  if (p.kind == BoundKind::above_roofs) {
    return head +
           "above every roof: its FLOPs or bytes are counted low, or a level no roof "
           "measured serves it";
  }
  std::string bound = bound_phrase(p);
  const auto& l = p.lines_in_flight;
  using Reading = results::LinesInFlight::Reading;
  const bool either = l && l->reading == Reading::within_noise && p.kind != BoundKind::latency;
  std::string share, value;
  if (p.bound) {
    share = percent(p.share) + " of " + p.bound->name;
    value = " (" + roof_value(*p.bound) + ")";
  }
  std::string middle;
  if (p.kind == BoundKind::latency && l) {
    middle = lines_text(*l);
    value = " at " + results::fixed_text(l->latency_ns, 0) + " ns" +
            (l->pages == results::PagesAssumed::base ? " (base pages)" : "");
  } else if (p.kind == BoundKind::unexplained && l) {
    middle = share + ", " + results::fixed_text(l->value, 1) + " lines in flight";
    value.clear();
  } else {
    middle = share;
  }
  if (either) bound += " or latency (" + results::fixed_text(l->value, 1) + " lines in flight)";
  std::string above;
  if (p.above_by) above = " (above it: " + above_cause(p, true) + ")";
  const std::string next = p.next.empty() ? "" : "; next: " + short_step(p.next.front());
  results::NextStep plain;  // the step without its gain
  if (!p.next.empty()) {
    plain = p.next.front();
    plain.gain.reset();
  }
  const std::string short_next = p.next.empty() ? "" : "; next: " + short_step(plain);
  // The longest form that fits: with the bound's value, then without it, then without the step's
  // gain, then without the step.
  for (const std::string& candidate :
       {head + bound + ": " + middle + value + above + next,
        head + bound + ": " + middle + above + next,
        head + bound + ": " + middle + above + short_next, head + bound + ": " + middle + above,
        head + bound + ": " + middle}) {
    if (results::display_length(candidate) <= kHeadlineColumns) return candidate;
  }
  std::string cut = head + bound + ": " + middle;
  return cut.substr(0, kHeadlineColumns - 1) + "~";
}

std::vector<std::string> details(const results::RegionPlacement& p) {
  using namespace verdict_words;
  std::vector<std::string> lines;
  if (p.bound) {
    add(lines, std::string(p.bound->ceiling() ? "ceiling" : "roof") + ": " + p.bound->name + " = " +
                   roof_value(*p.bound) + ", " + source_text(*p.bound) + interval_text(*p.bound) +
                   "; at its intensity " + results::table_value_text(p.roof_value_at_point) +
                   (p.by_bandwidth ? " GB/s" : " GFLOP/s") + ", the region " + percent(p.share) +
                   " of it");
  }
  if (p.ai && p.gflops) {
    add(lines, "its point: AI " + number(*p.ai) + " FLOP/B at the core, " + number(*p.gflops) +
                   " GFLOP/s, " + (p.gbps ? number(*p.gbps) : std::string("-")) + " GB/s (FLOPs " +
                   p.flops_source + ", bytes " + p.bytes_source + ")");
    if (p.by_bandwidth) add(lines, std::string("no FLOPs: placed by its bandwidth"));
  }
  if (!p.levels.empty()) {
    std::string uses;
    for (std::size_t i = 0; i < p.levels.size() && i < 6; ++i) {
      const results::RoofShare& u = p.levels[i];
      uses += (i ? ", " : "") + u.roof.name + " " + percent(u.share) +
              (!u.roof.ceiling() && !p.by_bandwidth ? " at " + number(u.ai) + " FLOP/B" : "");
    }
    add(lines,
        "roofs at its own intensity per level (memory-level roofline), most used first: " + uses);
  }
  if (p.runner_up) {
    add(lines, "runner-up: " + p.runner_up->roof.name + " at " + percent(p.runner_up->share) +
                   ", within the intervals of the bound: either may bound it");
  }
  add(lines, fp_text(p));
  if (p.far_below && p.kind == BoundKind::compute) {
    add(lines, std::string("under half of its ceiling: dependencies between its FP operations, "
                           "or instruction issue, limit it first"));
  }
  if (p.far_below && p.kind != BoundKind::compute && p.kind != BoundKind::latency &&
      p.kind != BoundKind::unexplained) {
    add(lines, std::string("under half of that roof: something else limits it first"));
  }
  // Little's law where memory matters to it: bound by memory or latency, or with lines in flight
  // enough to tell.
  if (p.lines_in_flight && (p.kind == BoundKind::memory || p.kind == BoundKind::latency ||
                            p.kind == BoundKind::unexplained || p.lines_in_flight->value >= 0.1)) {
    const auto& l = *p.lines_in_flight;
    add(lines, "Little's law: " + lines_text(l) + " (" + results::fixed_text(l.low, 1) + " - " +
                   results::fixed_text(l.high, 1) + " with the latency's and the time's spread), " +
                   "its memory lines fetched by loads per second x " + latency_text(l) + " / " +
                   std::to_string(l.threads) + " threads; " + reading_text(l));
  }
  if (p.above_by) {
    add(lines, percent(*p.above_by) +
                   " above its bound, past the bound's interval: " + above_cause(p, false));
  }
  add(lines, bytes_text(p));
  add(lines, family_text(p));
  add(lines, data_text(p));
  if (p.migrated) add(lines, std::string("its threads changed CPU between calls"));
  add(lines, "time: " + time_text(p) + ", spread " + results::percent_text(p.time.spread, 1) +
                 (p.time.unstable
                      ? ": unstable, its runs differ more than the bound's interval allows; its "
                        "share of the bound is not settled"
                      : ""));
  if (p.next.size() > 1) {
    std::vector<std::string> steps;
    for (const auto& s : p.next) steps.push_back(next_step_text(s));
    std::string text = "next steps: ";
    for (std::size_t i = 0; i < steps.size(); ++i) text += (i ? "; " : "") + steps[i];
    add(lines, text);
  }
  return lines;
}

std::vector<std::string> warnings(const results::RegionPlacement& p) {
  using namespace verdict_words;
  std::vector<std::string> lines;
  if (p.undercount) {
    const auto& u = *p.undercount;
    add(lines, "warning: recorded by " + std::to_string(u.recorded_threads) +
                   (u.recorded_threads == 1 ? " thread" : " threads") + " while " +
                   results::fixed_text(u.busy_threads, 1) +
                   " threads of the process worked during it: its counts and rates are " +
                   (u.recorded_threads == 1 ? "that thread's" : "those threads'") +
                   " only (begin and end outside a parallel region?); begin and end it inside "
                   "the parallel region, on every thread");
  }
  if (p.sequential_init) {
    const auto& s = *p.sequential_init;
    std::string handles;
    for (std::size_t i = 0; i < s.handles.size() && i < 6; ++i) {
      handles += (i ? ", " : "") + results::printable(s.handles[i]);
    }
    if (s.handles.size() > 6) handles += ", ...";
    add(lines, "warning: sequential initialization: " + percent(s.share) + " of its pages" +
                   (handles.empty() ? "" : " (" + handles + ")") + " on memory " +
                   std::to_string(s.memory) + " while threads of domains " +
                   joined(texts(s.domains)) +
                   " run it: one domain's thread placed them; first-touch them in parallel, "
                   "with the threads that use them, or interleave them");
  }
  if (p.hybrid_roof) {
    add(lines, "hybrid roof of this region: " + number(p.hybrid_roof->value) + " GB/s" +
                   (p.hybrid_note.empty() ? "" : " (" + p.hybrid_note + ")"));
  } else if (!p.hybrid_note.empty()) {
    add(lines, "no hybrid roof: " + p.hybrid_note);
  }
  return lines;
}

std::string place_file_header(const results::PlaceFile& file) {
  const std::string what_if = what_if_line(file);
  std::string text = (what_if.empty() ? std::string() : what_if + "\n") + "Regions on the " +
                     (file.access == "auto" ? std::string("roofs of each region's access mix")
                                            : file.access + " roofs") +
                     " and " + name(file.precision) + " ceilings of " + file.results + "\n";
  for (const auto& a : file.absent) {
    text += "domain " + std::to_string(a.domain) + ": no " + a.what + "\n";
  }
  return text;
}

std::string placement_table(const std::vector<results::RegionPlacement>& placements, bool verbose) {
  using namespace verdict_words;
  const std::vector<std::pair<std::string, std::size_t>> columns = {
      {"region", 16}, {"label", 11}, {"dom", 3},    {"thr", 3},    {"AI", 8},
      {"GFLOP/s", 8}, {"GB/s", 8},   {"time s", 8}, {"bound", 12}, {"% of it", 7}};
  std::ostringstream out;
  std::string header;
  for (const auto& [title, width] : columns) header += results::table_cell(title, width) + ' ';
  out << header.substr(0, header.find_last_not_of(' ') + 1) << "\n";
  const auto optional_text = [](const std::optional<double>& v) {
    return v ? results::format_number("%.3g", *v) : std::string("-");
  };
  for (const auto& p : placements) {
    const std::vector<std::string> cells = {p.region,
                                            p.label,
                                            std::to_string(p.domain),
                                            std::to_string(p.threads),
                                            optional_text(p.ai),
                                            optional_text(p.gflops),
                                            optional_text(p.gbps),
                                            results::format_number("%.4g", p.time.seconds),
                                            bound_word(p),
                                            p.bound ? percent(p.share) : "-"};
    std::string row;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      row += results::table_cell(cells[i], columns[i].second) + ' ';
    }
    out << row.substr(0, row.find_last_not_of(' ') + 1) << "\n";
    out << "    " << headline(p) << "\n";
    // Each fact wrapped under the row, its continuation indented by two.
    const auto facts = [&](const std::vector<std::string>& lines) {
      for (const std::string& fact : lines) {
        for (const std::string& line : wrap(fact, kHeadlineColumns, 2)) {
          out << "    " << line << "\n";
        }
      }
    };
    facts(warnings(p));
    if (verbose) facts(details(p));
  }
  std::size_t repeated = 0;
  for (const auto& p : placements) repeated += p.time.runs > 1 ? 1 : 0;
  if (!placements.empty()) {
    const std::string times =
        std::string(repeated == placements.size()
                        ? "times: each region's median over repeated runs (larm count's native "
                          "runs, or larm profile's sampled ones)"
                    : repeated == 0
                        ? "times: one timed run per region (larm count repeats the runs and takes "
                          "their median)"
                        : "times: the median over repeated runs where a region has them, else one "
                          "timed run") +
        (verbose ? "" : "; --verbose gives each verdict's evidence");
    for (const std::string& line : wrap(times, kVerdictColumns, 2)) out << line << "\n";
  }
  return out.str();
}

}  // namespace larm::text
