// Two runs of one machine, side by side.
#include "results/run_comparison.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

#include "results/run_history.h"

namespace larm::results {
namespace {

// A memory's size may move by what the kernel reserves between boots; more than this is another
// memory.
constexpr double kMemorySizeTolerance = 0.10;

void differ(std::vector<Difference>& out, const std::string& what, const std::string& a,
            const std::string& b) {
  if (a != b) out.push_back({what, a.empty() ? "(none)" : a, b.empty() ? "(none)" : b});
}

std::string text(const std::optional<std::string>& value) {
  return value.value_or("");
}
std::string text(const std::optional<long>& value) {
  return value ? std::to_string(*value) : std::string();
}
std::string text(const std::optional<bool>& value) {
  return value ? (*value ? "yes" : "no") : std::string();
}

std::string pus_text(const std::vector<unsigned>& pus) {
  std::string out;
  for (unsigned pu : pus) out += (out.empty() ? "" : ",") + std::to_string(pu);
  return out;
}

void compare_topology(const TopologyRecord& a, const TopologyRecord& b, RunComparison& out) {
  const std::size_t before = out.machine.size();
  differ(out.machine, "domains", std::to_string(a.domains.size()),
         std::to_string(b.domains.size()));
  for (std::size_t i = 0; i < std::min(a.domains.size(), b.domains.size()); ++i) {
    const DomainRecord& x = a.domains[i];
    const DomainRecord& y = b.domains[i];
    const std::string d = "domain " + std::to_string(x.index);
    differ(out.machine, d + " PUs", pus_text(x.pus), pus_text(y.pus));
    differ(out.machine, d + " cores", std::to_string(x.core_pus.size()),
           std::to_string(y.core_pus.size()));
    differ(out.machine, d + " cache levels", std::to_string(x.caches.size()),
           std::to_string(y.caches.size()));
    for (std::size_t c = 0; c < std::min(x.caches.size(), y.caches.size()); ++c) {
      differ(out.machine, d + " " + x.caches[c].level + " bytes",
             std::to_string(x.caches[c].instance_bytes),
             std::to_string(y.caches[c].instance_bytes));
    }
  }
  differ(out.machine, "memories", std::to_string(a.memories.size()),
         std::to_string(b.memories.size()));
  for (const MemoryRecord& x : a.memories) {
    const auto y = std::find_if(b.memories.begin(), b.memories.end(),
                                [&](const MemoryRecord& m) { return m.os_index == x.os_index; });
    const std::string m = "memory " + std::to_string(x.os_index);
    if (y == b.memories.end()) {
      out.machine.push_back({m, x.kind, "(none)"});
      continue;
    }
    differ(out.machine, m + " kind", x.kind, y->kind);
  }
  out.same_topology = out.machine.size() == before;
  // Sizes: a setting of the boot, not the structure; said, and only beyond the tolerance.
  for (const MemoryRecord& x : a.memories) {
    const auto y = std::find_if(b.memories.begin(), b.memories.end(),
                                [&](const MemoryRecord& m) { return m.os_index == x.os_index; });
    if (y == b.memories.end() || x.bytes == 0 || y->bytes == 0) continue;
    const double change = (static_cast<double>(y->bytes) - static_cast<double>(x.bytes)) /
                          static_cast<double>(x.bytes);
    if (std::abs(change) > kMemorySizeTolerance) {
      out.settings.push_back({"memory " + std::to_string(x.os_index) + " bytes",
                              std::to_string(x.bytes), std::to_string(y->bytes)});
    }
  }
}

std::string isas_text(const std::optional<std::vector<Isa>>& isas) {
  std::string out;
  for (Isa isa : isas.value_or(std::vector<Isa>{}))
    out += (out.empty() ? "" : " ") + std::string(name(isa));
  return out;
}

}  // namespace

std::pair<double, double> comparison_interval(const Roof& roof) {
  if (roof.interval && roof.interval->next_run) {
    return {roof.interval->next_run->low, roof.interval->next_run->high};
  }
  if (roof.interval) return {roof.interval->low, roof.interval->high};
  return {roof.stats.min, roof.stats.max};
}

std::pair<double, double> own_interval(const Roof& roof) {
  if (roof.interval) return {roof.interval->low, roof.interval->high};
  return {roof.stats.min, roof.stats.max};
}

int RunComparison::count(RoofComparison::Verdict verdict) const {
  return static_cast<int>(std::count_if(
      roofs.begin(), roofs.end(), [&](const RoofComparison& r) { return r.verdict == verdict; }));
}

RunComparison compare_runs(const Results& a, const Results& b) {
  RunComparison out;
  const Provenance& p = a.provenance;
  const Provenance& q = b.provenance;
  // Each field of the provenance compared, by the name the comparison gives it.
  using Field = std::pair<const char*, std::function<std::string(const Results&)>>;
  const auto field = [](const char* what, auto member) {
    return Field{what, [member](const Results& r) { return text(r.provenance.*member); }};
  };
  const Field machine[] = {
      field("host", &Provenance::host),
      field("cpu_model", &Provenance::cpu_model),
      field("cpu_vendor", &Provenance::cpu_vendor),
      field("cpu_family", &Provenance::cpu_family),
      field("cpu_model_number", &Provenance::cpu_model_number),
      field("cpu_stepping", &Provenance::cpu_stepping),
      {"usable_isas", [](const Results& r) { return isas_text(r.provenance.usable_isas); }}};
  for (const auto& [what, value] : machine) differ(out.machine, what, value(a), value(b));
  compare_topology(a.topology, b.topology, out);
  out.same_machine =
      out.same_topology && std::none_of(out.machine.begin(), out.machine.end(), [](const auto& d) {
        return d.what.rfind("cpu_", 0) == 0 || d.what == "usable_isas";
      });

  const Field settings[] = {
      field("larm_version", &Provenance::larm_version),
      field("git_commit", &Provenance::git_commit),
      field("compiler", &Provenance::compiler),
      field("build_type", &Provenance::build_type),
      field("kernel", &Provenance::kernel),
      field("quick", &Provenance::quick),
      field("samples", &Provenance::samples),
      field("passes", &Provenance::passes),
      {"roof_estimator", [](const Results& r) { return std::string(name(roof_estimator(r))); }}};
  for (const auto& [what, value] : settings) differ(out.settings, what, value(a), value(b));
  if (p.environment && q.environment && p.environment->is_object() && q.environment->is_object()) {
    for (const auto& [key, value] : p.environment->items()) {
      const auto other = q.environment->find(key);
      const std::string x = value.is_string() ? value.get<std::string>() : value.dump();
      const std::string y = other == q.environment->end() ? std::string()
                            : other->is_string()          ? other->get<std::string>()
                                                          : other->dump();
      differ(out.settings, "environment." + key, x, y);
    }
  }

  std::map<std::string, const Roof*> in_b;
  for (const Roof& r : b.roofs) in_b.emplace(roof_key(r), &r);
  std::map<std::string, bool> seen;
  const auto judge = [](RoofComparison& c) {
    const bool has_a = c.a != nullptr && c.a->present();
    const bool has_b = c.b != nullptr && c.b->present();
    if (!has_a && !has_b) {
      c.verdict = RoofComparison::Verdict::absent;
    } else if (!has_b) {
      c.verdict = RoofComparison::Verdict::only_a;
    } else if (!has_a) {
      c.verdict = RoofComparison::Verdict::only_b;
    } else {
      // B against what A expects of another run (its next-run interval), and their own
      // intervals apart: a value A's history already saw, or one its own noise covers, is no move.
      const auto [a_low, a_high] = comparison_interval(*c.a);
      const bool b_in_a = c.b->roof >= a_low && c.b->roof <= a_high;
      const auto [a_own_low, a_own_high] = own_interval(*c.a);
      const auto [b_own_low, b_own_high] = own_interval(*c.b);
      const bool apart = a_own_high < b_own_low || b_own_high < a_own_low;
      // Twice as far from A's value as A's interval reaches: with tens of roofs compared, a few
      // land just outside their 95 % intervals by chance; that far, none should.
      const double far_low = c.a->roof - 2 * (c.a->roof - a_low);
      const double far_high = c.a->roof + 2 * (a_high - c.a->roof);
      const bool far = c.b->roof < far_low || c.b->roof > far_high;
      c.verdict = b_in_a || !apart ? RoofComparison::Verdict::within
                  : far            ? RoofComparison::Verdict::changed
                                   : RoofComparison::Verdict::edge;
      c.relative = c.a->roof > 0 ? (c.b->roof - c.a->roof) / c.a->roof : 0;
    }
  };
  // A's roofs in its order, then B's that A does not have; a key seen once only.
  const auto add = [&](const Roof& r, bool from_a) {
    RoofComparison c;
    c.key = roof_key(r);
    if (seen[c.key]) return;
    seen[c.key] = true;
    if (from_a) {
      c.a = &r;
      const auto found = in_b.find(c.key);
      c.b = found == in_b.end() ? nullptr : found->second;
    } else {
      c.b = &r;
    }
    judge(c);
    out.roofs.push_back(c);
  };
  for (const Roof& r : a.roofs) add(r, true);
  for (const Roof& r : b.roofs) add(r, false);
  return out;
}

}  // namespace larm::results
