// The bound thread team and its barrier (also run under ThreadSanitizer).
#include <gtest/gtest.h>

#include <sched.h>
#include <atomic>

#include "platform/thread_team.h"
#include "topology/topology.h"

namespace larm::platform {
namespace {

TEST(ThreadTeam, ThreadsRunOnTheirPus) {
  const topology::Topology t = topology::Topology::load_live();
  const std::vector<unsigned> pus = t.domains()[0].core_pus;
  ThreadTeam team(t.handle(), pus);
  std::vector<int> cpu(pus.size(), -1);
  team.run([&](int i) { cpu[static_cast<std::size_t>(i)] = sched_getcpu(); });
  for (std::size_t i = 0; i < pus.size(); ++i) EXPECT_EQ(cpu[i], static_cast<int>(pus[i]));
}

TEST(ThreadTeam, RunsManyJobsAndBarriersInOrder) {
  const topology::Topology t = topology::Topology::load_live();
  ThreadTeam team(t.handle(), t.domains()[0].core_pus);
  std::atomic<int> arrived{0};
  for (int round = 0; round < 200; ++round) {
    std::atomic<int> before{0};
    bool ordered = true;
    std::atomic<bool> all_ordered{true};
    team.run([&](int) {
      before.fetch_add(1);
      team.barrier().wait();
      // After the barrier, every thread has incremented.
      if (before.load() != team.size()) all_ordered.store(false);
      arrived.fetch_add(1);
    });
    ordered = all_ordered.load();
    ASSERT_TRUE(ordered) << round;
  }
  EXPECT_EQ(arrived.load(), 200 * team.size());
}

TEST(ThreadTeam, ExceptionInAJobIsRethrownAndTheTeamGoesOn) {
  const topology::Topology t = topology::Topology::load_live();
  ThreadTeam team(t.handle(), t.domains()[0].core_pus);
  EXPECT_THROW(team.run([](int i) {
    if (i == 0) throw std::runtime_error("boom");
  }),
               std::runtime_error);
  int ran = 0;
  std::atomic<int> count{0};
  team.run([&](int) { count.fetch_add(1); });
  ran = count.load();
  EXPECT_EQ(ran, team.size());
}

TEST(ThreadTeam, BindingToAMissingPuFails) {
  const topology::Topology t = topology::Topology::load_live();
  EXPECT_THROW(ThreadTeam(t.handle(), {100000}), std::runtime_error);
}

}  // namespace
}  // namespace larm::platform
