// The hybrid sweep's page layout (thesis figure 4.10): the common share interleaved, the rest on
// the memory that holds more, the share on the fast memory exact to a page.
#include <gtest/gtest.h>

#include "platform/page_mix.h"

namespace larm::platform {
namespace {

TEST(PageMix, InterleavesTheCommonShareAndPutsTheRestOnTheLargerMemory) {
  const PageMix quarter = plan_page_mix(1000, 0.25);
  EXPECT_EQ(quarter.fast_pages, 250u);
  EXPECT_EQ(quarter.interleaved_pages, 500u);  // 250 fast + 250 slow, alternating
  EXPECT_FALSE(quarter.rest_on_fast);          // the other 500 on the slow memory
  const PageMix most = plan_page_mix(1000, 0.9);
  EXPECT_EQ(most.fast_pages, 900u);
  EXPECT_EQ(most.interleaved_pages, 200u);
  EXPECT_TRUE(most.rest_on_fast);
  const PageMix half = plan_page_mix(1001, 0.5);
  EXPECT_EQ(half.interleaved_pages, 2 * std::min(half.fast_pages, 1001 - half.fast_pages));
  for (double ratio : {0.0, 1.0}) {
    const PageMix end = plan_page_mix(64, ratio);
    EXPECT_EQ(end.interleaved_pages, 0u);
    EXPECT_EQ(end.fast_pages, ratio == 1.0 ? 64u : 0u);
    EXPECT_EQ(end.rest_on_fast, ratio == 1.0);
  }
  for (std::size_t pages : {1u, 7u, 4096u}) {
    for (int i = 0; i <= 10; ++i) {
      const PageMix mix = plan_page_mix(pages, i / 10.0);
      EXPECT_LE(std::abs(mix.ratio_fast() - i / 10.0), 0.5 / static_cast<double>(pages) + 1e-12)
          << pages << " pages, ratio " << i / 10.0;
      EXPECT_LE(mix.interleaved_pages, pages);
    }
  }
}

}  // namespace
}  // namespace larm::platform
