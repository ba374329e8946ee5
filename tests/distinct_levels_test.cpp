// Cache levels whose latency is within 15 % of the next level's are marked indistinct, with
// their roofs, and leave the model.
#include <gtest/gtest.h>

#include "characterize/distinct_levels.h"
#include "results/statistics.h"
#include "roofline/roof_set.h"

namespace larm::characterize {
namespace {

results::LatencyPoint latency(Level level, double ns, std::optional<unsigned> memory = {}) {
  results::LatencyPoint p;
  p.level = level;
  if (memory) p.memory = MemoryRef{static_cast<int>(*memory), *memory};
  p.working_set_bytes = 16 << 20;
  p.samples_ns = {ns};
  p.stats = results::summarize(p.samples_ns);
  return p;
}

results::Roof load_roof(Level level, double gbps) {
  results::Roof r;
  r.level = level;
  r.samples = {gbps};
  r.stats = results::summarize(r.samples);
  r.roof = gbps;
  if (level == Level::memory) {
    r.memory = MemoryRef{0, 0};
    r.placement = Placement::local;
  }
  return r;
}

TEST(DistinctLevels, AnL3AsSlowAsMemoryIsIndistinctAndLeavesTheModel) {
  results::Results r;
  r.latency = {latency(Level::L1, 1.1), latency(Level::L2, 3.8), latency(Level::L3, 144.7),
               latency(Level::memory, 162, 0), latency(Level::memory, 250, 1)};
  r.roofs = {load_roof(Level::L2, 300), load_roof(Level::L3, 190), load_roof(Level::memory, 40)};
  EXPECT_EQ(mark_indistinct_levels(r), 1);
  EXPECT_EQ(r.latency[2].status, Status::indistinct);
  EXPECT_NE(r.latency[2].status_reason.find("L3 latency 144.7 ns"), std::string::npos)
      << r.latency[2].status_reason;
  EXPECT_NE(r.latency[2].status_reason.find("memory's 162.0 ns"), std::string::npos);
  EXPECT_EQ(r.roofs[1].status, Status::indistinct);
  EXPECT_EQ(r.latency[1].status, Status::ok);
  EXPECT_EQ(r.roofs[0].status, Status::ok);
  // The model no longer has an L3 roof; the others stay.
  const roofline::RoofSet roofs(r);
  EXPECT_FALSE(roofs.bandwidth(0, Level::L3, Access::load));
  EXPECT_TRUE(roofs.bandwidth(0, Level::L2, Access::load));
  // The status comes back from the file with its reason.
  EXPECT_EQ(larm::parse_status_text(larm::status_text(r.roofs[1].status, r.roofs[1].status_reason)),
            std::make_pair(Status::indistinct, r.roofs[1].status_reason));
}

TEST(DistinctLevels, DistinctLevelsStay) {
  results::Results r;
  r.latency = {latency(Level::L2, 3.8), latency(Level::L3, 40), latency(Level::memory, 110, 0)};
  EXPECT_EQ(mark_indistinct_levels(r), 0);
  EXPECT_EQ(r.latency[1].status, Status::ok);
}

}  // namespace
}  // namespace larm::characterize
