// Plans computed from real machines' topologies: what is measured, what is absent and why.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <set>

#include <map>

#include "characterize/doctor.h"
#include "characterize/plan.h"
#include "characterize/twin_domains.h"
#include "report/text/plan_text.h"
#include "tests/topology_fixture.h"

namespace larm::characterize {
namespace {

using larm::testing::load_fixture;

PlanOptions all_isas_options(bool quick = false) {
  PlanOptions o = default_plan_options(quick);
  o.isa = codegen::widest_isa();
  o.flop_isas = codegen::isa_family();
  return o;
}

// This build's FLOP ceilings per domain: add, mul and fma in dp and sp for each ISA, the fma of
// an ISA without it absent (x86-64: 24 of which sse2's and avx's 4 fma absent; AArch64 NEON: 6).
int flop_ceilings() {
  return 8 * static_cast<int>(codegen::isa_family().size());  // add, mul, fma, addmul; sp, dp
}
int absent_fma_ceilings() {
  int n = 0;
  for (larm::Isa isa : codegen::isa_family()) n += codegen::traits(isa).has_fma ? 0 : 2;
  return n;
}

// Measurements of a kind, on a domain, with a placement by its word ("" for none, "*" for any).
int count(const Plan& plan, MeasurementKind kind, int domain = -1,
          const std::string& placement = "*", bool absent = false) {
  int n = 0;
  for (const PlannedMeasurement& m : plan.measurements) {
    if (m.kind == kind && (domain < 0 || m.domain == domain) &&
        (placement == "*" || name_or_empty(m.placement) == placement) &&
        m.absent_reason.empty() != absent) {
      ++n;
    }
  }
  return n;
}

// The L2 store and copy roofs run 16 stores an iteration (Zen 5: 32 or 64 cost a third
// to a half); every other roof the default of its access.
TEST(Plan, TheL2StoreRoofsRunTheShortStoreLoop) {
  const topology::Topology t = load_fixture("24em64t-2n6c2t-pci.xml");
  const bool x86 = codegen::isa_family().front() == larm::Isa::sse2;  // measured there only
  int l2_stores = 0;
  for (const PlannedMeasurement& m : make_plan(t, all_isas_options()).measurements) {
    if (m.kind != MeasurementKind::bandwidth) continue;
    const auto& stream = std::get<codegen::StreamSpec>(m.spec);
    if (x86 && m.level == Level::L2 &&
        (stream.access == Access::store || stream.access == Access::copy)) {
      EXPECT_EQ(stream.effective_unroll(), 16) << m.label();
      ++l2_stores;
    } else {
      EXPECT_EQ(stream.unroll, 0) << m.label();
    }
  }
  EXPECT_EQ(l2_stores, x86 ? 4 : 0);  // store and copy, on each domain
}

TEST(Plan, TwoSocketNodeHasLocalAndRemoteMemoryRoofsPerDomain) {
  const topology::Topology t = load_fixture("24em64t-2n6c2t-pci.xml");
  const Plan plan = make_plan(t, all_isas_options());
  for (int d = 0; d < 2; ++d) {
    // The clock alone, then under each FLOP ISA's load.
    EXPECT_EQ(count(plan, MeasurementKind::frequency, d),
              1 + static_cast<int>(codegen::isa_family().size()));
    EXPECT_EQ(count(plan, MeasurementKind::bandwidth, d, ""), 15);  // L1-L3 × 5 accesses
    EXPECT_EQ(count(plan, MeasurementKind::bandwidth, d, "local"), 5);
    EXPECT_EQ(count(plan, MeasurementKind::bandwidth, d, "remote"), 5);
    EXPECT_EQ(count(plan, MeasurementKind::bandwidth, d, "contention"), 0);
    EXPECT_EQ(count(plan, MeasurementKind::flops, d), flop_ceilings() - absent_fma_ceilings());
    EXPECT_EQ(count(plan, MeasurementKind::flops, d, "*", true), absent_fma_ceilings());
    // L1-L3, 2 memories, and the local one again on base pages
    EXPECT_EQ(count(plan, MeasurementKind::latency, d), 6);
  }
  for (const PlannedMeasurement& m : plan.measurements) {
    if (m.domain >= 0 &&
        (m.kind == MeasurementKind::bandwidth || m.kind == MeasurementKind::flops)) {
      EXPECT_EQ(m.pus.size(), 6u) << m.label();  // all cores of the domain, one per core
    }
    if (m.kind == MeasurementKind::latency) {
      EXPECT_EQ(m.pus.size(), 1u);
    }
  }
  // Every core of the machine: on each memory, on all interleaved, and the contention curves.
  int machine_contention = 0, machine_congestion = 0;
  for (const PlannedMeasurement& m : plan.measurements) {
    if (m.domain >= 0) continue;
    EXPECT_EQ(m.pu_domains.size(), m.pus.size());
    if (m.kind == MeasurementKind::bandwidth) {
      EXPECT_EQ(m.pus.size(), 12u) << m.label();
      m.placement == Placement::contention ? ++machine_contention : ++machine_congestion;
    }
  }
  EXPECT_EQ(machine_contention, 10);
  EXPECT_EQ(machine_congestion, 5);
  // 12 threads on each of 2 memories, and domain 0's L3 (6 cores share it) from 1 to 6: domain 1
  // is its twin.
  EXPECT_EQ(count(plan, MeasurementKind::curve), 2 * 12 + 6);
  EXPECT_EQ(plan.to_run + plan.absent, static_cast<int>(plan.measurements.size()));
  EXPECT_GT(plan.estimated_seconds, 0);
}

// The sweep from one core beside the all-core one, and each shared cache level's
// scaling curve on the cores that share one instance; both in the estimate.
TEST(Plan, OneCoreSweepAndCacheScalingCurvesAreMeasuredAndEstimated) {
  const topology::Topology t = load_fixture("24em64t-2n6c2t-pci.xml");
  const Plan plan = make_plan(t, all_isas_options());
  const topology::Domain& domain = t.domains()[0];
  int one_core = 0, all_cores = 0;
  std::set<std::size_t> between;  // thread counts of the fig. 2.11 load sweeps
  double sweep_seconds = 0, scaling_seconds = 0;
  std::vector<std::size_t> scaling_threads;
  for (const PlannedMeasurement& m : plan.measurements) {
    if (m.domain != 0) continue;
    if (m.kind == MeasurementKind::sweep) {
      if (m.pus.size() > 1 && m.pus.size() < domain.core_pus.size()) {
        // The first n cores of the domain, load only (thesis fig. 2.11).
        for (std::size_t i = 0; i < m.pus.size(); ++i) EXPECT_EQ(m.pus[i], domain.core_pus[i]);
        EXPECT_EQ(std::get<codegen::StreamSpec>(m.spec).access, Access::load) << m.label();
        between.insert(m.pus.size());
        continue;
      }
      EXPECT_TRUE(m.pus.size() == 1 || m.pus == domain.core_pus) << m.label();
      (m.pus.size() == 1 ? one_core : all_cores)++;
      if (m.pus.size() == 1) {
        EXPECT_NE(m.label().find("one core"), std::string::npos) << m.label();
        sweep_seconds += m.estimated_seconds;
      }
    }
    if (m.kind == MeasurementKind::curve) {
      EXPECT_EQ(m.level, Level::L3) << m.label();  // L1 and L2 are private on this node
      EXPECT_GT(m.working_set_bytes, 0u);
      for (unsigned pu : m.pus)
        EXPECT_NE(std::find(domain.core_pus.begin(), domain.core_pus.end(), pu),
                  domain.core_pus.end());
      scaling_threads.push_back(m.pus.size());
      scaling_seconds += m.estimated_seconds;
    }
  }
  EXPECT_GT(one_core, 0);
  EXPECT_GT(all_cores, 0);
  EXPECT_EQ(between, (std::set<std::size_t>{2, 4}));  // 6 cores: powers of two between
  EXPECT_EQ(scaling_threads, (std::vector<std::size_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_GT(sweep_seconds, 0);
  EXPECT_GT(scaling_seconds, 0);
  // Both are in the plan's estimate: it is the sum of its measurements'.
  double sum = 0;
  for (const PlannedMeasurement& m : plan.measurements) sum += m.estimated_seconds;
  EXPECT_NEAR(plan.estimated_seconds, sum, 1e-6 * sum);
  // --only curve keeps the curves alone (a domain of one node too: the memory's scaling).
  PlanOptions curves = all_isas_options();
  curves.only = {MeasurementKind::curve};
  const Plan only = make_plan(load_fixture("cxlmem+dax.v2.xml"), curves);
  EXPECT_GT(count(only, MeasurementKind::curve), 0);
  EXPECT_EQ(count(only, MeasurementKind::bandwidth), 0);
}

// A domain with the same cores and caches as an earlier one is sized from its sweeps;
// every roof, ceiling and latency is still measured on it.
TEST(Plan, TwinDomainsAreSweptOnceAndMeasuredEach) {
  const topology::Topology t = load_fixture("32em64t-2n8c2t-pci-noio.xml");
  const Plan twins = make_plan(t, all_isas_options());
  PlanOptions every = all_isas_options();
  every.sweep_every_domain = true;
  const Plan full = make_plan(t, every);
  EXPECT_EQ(twins.sized_from, (std::map<int, int>{{1, 0}}));
  EXPECT_TRUE(full.sized_from.empty());
  for (MeasurementKind kind :
       {MeasurementKind::sweep, MeasurementKind::capacity, MeasurementKind::curve}) {
    EXPECT_GT(count(twins, kind, 0), 0) << name(kind);
    EXPECT_EQ(count(twins, kind, 0), count(full, kind, 0)) << name(kind);
    EXPECT_GT(count(full, kind, 1), 0) << name(kind);
    // The curves of the machine (domain -1) stay; only the twin's own go.
    EXPECT_EQ(count(twins, kind, 1), 0) << name(kind);
  }
  for (MeasurementKind kind : {MeasurementKind::frequency, MeasurementKind::bandwidth,
                               MeasurementKind::flops, MeasurementKind::latency}) {
    EXPECT_EQ(count(twins, kind, 1), count(full, kind, 1)) << name(kind);
    EXPECT_GT(count(twins, kind, 1), 0) << name(kind);
  }
  EXPECT_LT(twins.estimated_seconds, 0.8 * full.estimated_seconds);
  const std::string text = text::describe_plan(twins, t, false);
  EXPECT_NE(text.find("domain 1: the same cores, caches and memory kind as domain 0"), std::string::npos)
      << text;
  // The twin of a domain left out of the run has its own sweeps.
  PlanOptions second = all_isas_options();
  second.domains = {1};
  const Plan alone = make_plan(t, second);
  EXPECT_TRUE(alone.sized_from.empty());
  EXPECT_GT(count(alone, MeasurementKind::sweep, 1), 0);
  // Domains that differ are not twins: KNL's four SNC domains are alike, cxlmem's CPU domain has
  // no CPU-less twin (a CPU-less node is no domain), and the 4-node AMD's eight domains are one
  // kind.
  EXPECT_EQ(make_plan(load_fixture("64intel64-fakeKNL-SNC4-hybrid.xml"), all_isas_options())
                .sized_from.size(),
            3u);
  EXPECT_EQ(make_plan(load_fixture("16amd64-4distances.xml"), all_isas_options()).sized_from.size(),
            7u);
}

// A domain with other caches, or another kind of local memory, is no twin.
TEST(Plan, TwinSignatureTellsCachesAndMemoryKinds) {
  const topology::Topology t = load_fixture("32em64t-2n8c2t-pci-noio.xml");
  topology::Domain other = t.domains()[1];
  EXPECT_EQ(twin_signature(t, t.domains()[0]), twin_signature(t, other));
  other.caches.back().instance_bytes /= 2;
  EXPECT_NE(twin_signature(t, t.domains()[0]), twin_signature(t, other));
  other = t.domains()[1];
  other.core_pus.pop_back();
  EXPECT_NE(twin_signature(t, t.domains()[0]), twin_signature(t, other));
  const topology::Topology knl = load_fixture("64intel64-fakeKNL-SNC4-hybrid.xml");
  topology::Domain no_mcdram = knl.domains()[1];
  ASSERT_GT(no_mcdram.local_memories.size(), 1u);
  no_mcdram.local_memories.pop_back();
  EXPECT_NE(twin_signature(knl, knl.domains()[0]), twin_signature(knl, no_mcdram));
}

TEST(Plan, ContentionCurveFillsTheMemorysDomainFirstThenByDistance) {
  const topology::Topology t = load_fixture("16amd64-4distances.xml");
  // Memory with OS index 5 is local to domain 3 (logical order differs from OS order).
  int memory = -1;
  for (std::size_t m = 0; m < t.memories().size(); ++m) {
    if (t.memories()[m].os_index == 5) memory = static_cast<int>(m);
  }
  ASSERT_GE(memory, 0);
  const auto order = cores_by_distance(t, memory);
  ASSERT_EQ(order.size(), 16u);
  const int home = t.memories()[static_cast<std::size_t>(memory)].local_domains.at(0);
  EXPECT_EQ(order[0].second, home);
  EXPECT_EQ(order[1].second, home);
  EXPECT_NE(order[2].second, home);
  EXPECT_EQ(curve_thread_counts(16).size(), 16u);
  EXPECT_EQ(curve_thread_counts(64).back(), 64);
  EXPECT_LE(curve_thread_counts(64).size(), 33u);
}

// A contention curve's point is sized from the last-level caches its threads reach. The x3950
// has 4 domains of 24 cores, each with 4 L3 instances of 16 MiB shared by 6 cores: one thread
// reaches one L3, so its point takes 4 x 16 MiB, not 4 x the machine's 256 MiB; every core
// reaches them all.
TEST(Plan, ContentionCurvePointsAreSizedFromTheCachesTheirThreadsReach) {
  const topology::Topology t = load_fixture("96em64t-4n4d3ca2co-pci.xml");
  const topology::Domain& d = t.domains()[0];
  const topology::CacheLevel& l3 = d.caches.back();
  ASSERT_EQ(l3.instances, 4);
  ASSERT_EQ(l3.max_sharing_cores, 6);
  EXPECT_DOUBLE_EQ(reached_llc_share(d, 0), 0.0);
  EXPECT_DOUBLE_EQ(reached_llc_share(d, 1), 0.25);
  EXPECT_DOUBLE_EQ(reached_llc_share(d, 6), 0.25);
  EXPECT_DOUBLE_EQ(reached_llc_share(d, 7), 0.5);
  EXPECT_DOUBLE_EQ(reached_llc_share(d, 24), 1.0);
  std::uint64_t machine_llc = 0;
  for (const topology::Domain& each : t.domains()) machine_llc += each.caches.back().total_bytes;
  std::map<std::size_t, std::uint64_t> bytes;  // threads -> working set per thread
  for (const PlannedMeasurement& m : make_plan(t, all_isas_options()).measurements) {
    if (m.kind == MeasurementKind::curve && m.domain < 0 && m.memory && m.memory->index == 0) {
      bytes[m.pus.size()] = m.working_set_bytes;
    }
  }
  ASSERT_EQ(bytes.count(1), 1u);
  ASSERT_EQ(bytes.count(96), 1u);
  EXPECT_EQ(bytes[1], 4 * l3.instance_bytes);
  EXPECT_EQ(bytes[96], 4 * machine_llc / 96);
  // A domain without a shared last level: each core its own L2, one reached per thread.
  const topology::Topology opteron = load_fixture("16amd64-4distances.xml");
  EXPECT_DOUBLE_EQ(reached_llc_share(opteron.domains()[0], 1), 0.5);
}

// The passes' shares of a measurement's samples add up to the samples asked for.
TEST(Plan, PassSharesAddUpToTheSamples) {
  EXPECT_EQ(pass_share(5, 2, 0), 3);
  EXPECT_EQ(pass_share(5, 2, 1), 2);
  EXPECT_EQ(pass_share(11, 3, 0), 4);
  EXPECT_EQ(pass_share(11, 3, 1), 4);
  EXPECT_EQ(pass_share(11, 3, 2), 3);
  EXPECT_EQ(pass_share(7, 1, 0), 7);
  for (int samples = 1; samples <= 40; ++samples) {
    for (int passes = 1; passes <= 6; ++passes) {
      int sum = 0;
      for (int pass = 0; pass < passes; ++pass) {
        const int share = pass_share(samples, passes, pass);
        EXPECT_GE(share, samples / passes);
        EXPECT_LE(share, (samples + passes - 1) / passes);
        sum += share;
      }
      EXPECT_EQ(sum, samples) << samples << " over " << passes;
    }
  }
}

TEST(Plan, KnlDomainsSeeTwoLocalMemoriesAndSixRemoteOnes) {
  const topology::Topology t = load_fixture("64intel64-fakeKNL-SNC4-hybrid.xml");
  const Plan plan = make_plan(t, all_isas_options());
  std::map<int, std::map<Placement, std::set<std::string>>> kinds;  // domain -> placement -> kinds
  for (const PlannedMeasurement& m : plan.measurements) {
    if (m.kind != MeasurementKind::bandwidth || !m.memory || !m.placement || m.domain < 0) continue;
    kinds[m.domain][*m.placement].insert(
        t.memories()[static_cast<std::size_t>(m.memory->index)].kind + m.memory->text());
  }
  ASSERT_EQ(kinds.size(), 4u);
  for (auto& [domain, by_placement] : kinds) {
    EXPECT_EQ(by_placement[Placement::local].size(), 2u) << domain;
    EXPECT_EQ(by_placement[Placement::remote].size(), 6u) << domain;
  }
  EXPECT_EQ(count(plan, MeasurementKind::bandwidth, 0, "local"), 10);
  EXPECT_EQ(count(plan, MeasurementKind::bandwidth, 0, "remote"), 30);
}

TEST(Plan, SingleNodeMarksSharedMemoryRoofsAbsent) {
  const topology::Topology t = load_fixture("cxlmem+dax.v2.xml");
  const Plan plan = make_plan(t, all_isas_options());
  int absent_shared = 0;
  for (const PlannedMeasurement& m : plan.measurements) {
    // The memory's scaling curve still runs: threads added on the one memory.
    if (m.kind == MeasurementKind::curve) continue;
    if (m.placement == Placement::contention || m.placement == Placement::congestion) {
      EXPECT_EQ(m.absent_reason, "single NUMA node");
      ++absent_shared;
    }
    EXPECT_NE(m.placement, Placement::remote);
  }
  EXPECT_EQ(absent_shared, 10);
}

TEST(Plan, OptionsOutOfRangeAreNamedOneByOne) {
  const topology::Topology t = load_fixture("cxlmem+dax.v2.xml");
  PlanOptions o = all_isas_options();
  EXPECT_EQ(plan_options_problem(o, t), "");
  const auto problem = [&](auto change) {
    PlanOptions changed = o;
    change(changed);
    return plan_options_problem(changed, t);
  };
  EXPECT_NE(problem([](PlanOptions& p) { p.samples = 0; }), "");
  EXPECT_NE(problem([](PlanOptions& p) { p.samples = kMaxSamples + 1; }), "");
  EXPECT_NE(problem([](PlanOptions& p) { p.passes = 2'000'000'000; }), "");
  EXPECT_NE(problem([](PlanOptions& p) { p.passes = 0; }), "");
  EXPECT_NE(problem([](PlanOptions& p) { p.sweep_points_per_octave = 100'000; }), "");
  EXPECT_NE(problem([](PlanOptions& p) { p.min_sample_seconds = 1e300; }), "");
  EXPECT_NE(problem([](PlanOptions& p) { p.usable_llc_fraction = 0; }), "");
  EXPECT_NE(problem([](PlanOptions& p) { p.domains = {0, 0}; }), "");
  const std::string missing = problem([](PlanOptions& p) { p.domains = {7}; });
  EXPECT_NE(missing.find("domain 7 does not exist"), std::string::npos) << missing;
}

TEST(Plan, CpulessMemoryIsARemoteTargetOfEveryDomain) {
  const topology::Topology t = load_fixture("qemu-2domains-1cpuless.xml");
  const Plan plan = make_plan(t, all_isas_options(true));
  for (int d = 0; d < 2; ++d) {
    bool found = false;
    for (const PlannedMeasurement& m : plan.measurements) {
      if (m.domain == d && m.kind == MeasurementKind::bandwidth && m.memory &&
          m.memory->index == 2 && m.level == Level::memory) {
        EXPECT_EQ(m.placement, Placement::remote);
        found = true;
      }
    }
    EXPECT_TRUE(found) << d;
  }
}

// Each memory's latency under load: from its own domain (local) and the nearest other (remote);
// a memory without cores from the nearest domain only.
TEST(Plan, LoadedLatencyFromTheMemorysDomainAndTheNearestOther) {
  const topology::Topology t = load_fixture("16amd64-4distances.xml");
  for (const bool quick : {true, false}) {
    const Plan plan = make_plan(t, all_isas_options(quick));
    std::map<int, std::vector<const PlannedMeasurement*>> by_memory;
    for (const PlannedMeasurement& m : plan.measurements) {
      if (m.kind != MeasurementKind::loaded) continue;
      ASSERT_TRUE(m.memory);
      by_memory[m.memory->index].push_back(&m);
      EXPECT_TRUE(m.absent_reason.empty()) << m.absent_reason;
      // Every mix from the local domain of the first domain of its kind, reads only from the
      // remote one, from a twin domain and in a quick run.
      const bool twin = plan.sized_from.count(m.domain) > 0;
      EXPECT_EQ(m.mixes.size(), quick || m.placement == Placement::remote || twin ? 1u : 3u);
      if (!quick && m.placement == Placement::local && m.domain == 0) {
        EXPECT_EQ(m.mixes.size(), 3u);
      }
      // The chase and the domain's other cores, injecting.
      EXPECT_EQ(m.pus.size(), t.domains()[static_cast<std::size_t>(m.domain)].core_pus.size());
      EXPECT_GE(m.pus.size(), 2u);
      EXPECT_GT(m.injector_bytes, 0u);
      EXPECT_GT(m.estimated_seconds, 0);
      EXPECT_NE(m.label().find("loaded domain"), std::string::npos) << m.label();
    }
    ASSERT_EQ(by_memory.size(), t.memories().size());
    for (const auto& [memory, entries] : by_memory) {
      ASSERT_EQ(entries.size(), 2u) << memory;
      int local = 0;
      for (const PlannedMeasurement* m : entries) {
        const bool is_local = m->placement == Placement::local;
        local += is_local;
        const auto nearest = cores_by_distance(t, memory);
        // The remote chase is on the first domain of the distance order that is not the memory's.
        if (!is_local) {
          const std::vector<int>& own =
              t.memories()[static_cast<std::size_t>(memory)].local_domains;
          const auto other = std::find_if(nearest.begin(), nearest.end(), [&own](const auto& core) {
            return std::find(own.begin(), own.end(), core.second) == own.end();
          });
          EXPECT_EQ(m->domain, other->second) << memory;
        }
      }
      EXPECT_EQ(local, 1) << memory;
    }
  }
  const Plan cpuless =
      make_plan(load_fixture("qemu-2domains-1cpuless.xml"), all_isas_options(true));
  int on_cpuless = 0;
  for (const PlannedMeasurement& m : cpuless.measurements) {
    if (m.kind == MeasurementKind::loaded && m.memory && m.memory->index == 2) {
      ++on_cpuless;
      EXPECT_EQ(m.placement, Placement::remote);
      // One core per domain here: none is left to inject.
      EXPECT_NE(m.absent_reason.find("has one core"), std::string::npos) << m.absent_reason;
    }
  }
  EXPECT_EQ(on_cpuless, 1);
  // --only loaded: those and the frequencies.
  PlanOptions only = all_isas_options(true);
  only.only = {MeasurementKind::loaded};
  const Plan loaded = make_plan(t, only);
  EXPECT_EQ(count(loaded, MeasurementKind::loaded), 2 * static_cast<int>(t.memories().size()));
  EXPECT_EQ(count(loaded, MeasurementKind::bandwidth), 0);
}

TEST(Plan, DomainsAndKindsFilterTheMeasurements) {
  const topology::Topology t = load_fixture("96em64t-4n4d3ca2co-pci.xml");
  PlanOptions o = all_isas_options(true);
  o.domains = {2};
  o.only = {MeasurementKind::flops};
  const Plan plan = make_plan(t, o);
  for (const PlannedMeasurement& m : plan.measurements) {
    EXPECT_EQ(m.domain, 2);
    EXPECT_TRUE(m.kind == MeasurementKind::flops || m.kind == MeasurementKind::frequency);
  }
  EXPECT_EQ(count(plan, MeasurementKind::flops), flop_ceilings() - absent_fma_ceilings());
}

TEST(Plan, QuickIsShorterThanDefault) {
  const topology::Topology t = load_fixture("32em64t-2n8c2t-pci-noio.xml");
  const Plan full = make_plan(t, all_isas_options(false));
  const Plan quick = make_plan(t, all_isas_options(true));
  EXPECT_LT(quick.estimated_seconds, full.estimated_seconds);
  EXPECT_LT(count(quick, MeasurementKind::sweep), count(full, MeasurementKind::sweep));
}

// The run's fixed part (the doctor before and after it, the cache probe) is priced on this machine
// only: a topology file runs nothing.
TEST(Plan, PricesTheRunsFixedPartOnThisMachineOnly) {
  for (const bool quick : {true, false}) {
    PlanOptions o = all_isas_options(quick);
    o.llc_probe_seconds = 0.25;
    const topology::Topology live = topology::Topology::load_live();
    const Plan here = make_plan(live, o);
    EXPECT_DOUBLE_EQ(here.fixed_seconds, (quick ? kShortDoctorSeconds : kDoctorSecondsBefore) +
                                             kShortDoctorSeconds + 0.25);
    EXPECT_DOUBLE_EQ(here.total_seconds(), here.estimated_seconds + here.fixed_seconds);
    const std::string text = text::describe_plan(here, live, false);
    EXPECT_NE(text.find("\n  fixed part "), std::string::npos);
    char total[64];
    std::snprintf(total, sizeof total, "estimated %.0f s", here.total_seconds());
    EXPECT_NE(text.find(total), std::string::npos) << text;
    const Plan file = make_plan(load_fixture("24em64t-2n6c2t-pci.xml"), o);
    EXPECT_EQ(file.fixed_seconds, 0);
    EXPECT_EQ(text::describe_plan(file, load_fixture("24em64t-2n6c2t-pci.xml"), false)
                  .find("\n  fixed part "),
              std::string::npos);
  }
}

TEST(Plan, DescriptionGivesCountsAndEstimate) {
  const topology::Topology t = load_fixture("24em64t-2n6c2t-pci.xml");
  const Plan plan = make_plan(t, all_isas_options());
  const std::string text = text::describe_plan(plan, t, true);
  EXPECT_NE(text.find(std::to_string(plan.to_run) + " measurements to run"), std::string::npos);
  for (larm::Isa isa : codegen::isa_family()) {
    if (!codegen::traits(isa).has_fma) {
      EXPECT_NE(text.find(std::string("absent: no FMA in ") + name(isa)), std::string::npos);
    }
  }
  EXPECT_NE(text.find("Estimate:"), std::string::npos);
}

}  // namespace
}  // namespace larm::characterize
