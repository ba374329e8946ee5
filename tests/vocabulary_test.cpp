// The vocabulary's tables: every word parses back to its value, unknown words are refused, and
// status texts keep the results files' format.
#include <gtest/gtest.h>

#include "results/vocabulary.h"

namespace larm {
namespace {

template <typename E>
void expect_every_word_round_trips() {
  for (E value : all<E>()) {
    const std::optional<E> parsed = parse<E>(name(value));
    ASSERT_TRUE(parsed) << name(value);
    EXPECT_EQ(*parsed, value);
  }
  EXPECT_FALSE(parse<E>(""));
  EXPECT_FALSE(parse<E>("nonsense"));
}

TEST(Vocabulary, EveryWordRoundTrips) {
  expect_every_word_round_trips<Access>();
  expect_every_word_round_trips<FlopOp>();
  expect_every_word_round_trips<Precision>();
  expect_every_word_round_trips<Isa>();
  expect_every_word_round_trips<Level>();
  expect_every_word_round_trips<Placement>();
  expect_every_word_round_trips<Status>();
}

TEST(Vocabulary, WordsAreThoseOfTheFiles) {
  EXPECT_STREQ(name(Access::store_nt), "store-nt");
  EXPECT_STREQ(name(Access::ld2st1), "2ld1st");
  EXPECT_STREQ(name(Isa::avx512), "avx512");
  EXPECT_STREQ(name(Level::memory), "memory");
  EXPECT_EQ(word_list<Access>(), "load, store, store-nt, copy, 2ld1st");
  EXPECT_EQ(parse<Level>("l1"), std::nullopt);  // case matters: the files write L1
}

TEST(Vocabulary, StatusTextsKeepTheFileFormat) {
  EXPECT_EQ(status_text(Status::ok, ""), "ok");
  EXPECT_EQ(status_text(Status::absent, "single NUMA node"), "single NUMA node");
  EXPECT_EQ(status_text(Status::misplaced, ""), "misplaced");
  EXPECT_EQ(status_text(Status::misplaced, "93.1 % of pages"), "misplaced: 93.1 % of pages");
  EXPECT_EQ(parse_status_text("unstable"), std::make_pair(Status::unstable, std::string()));
  EXPECT_EQ(parse_status_text("misplaced: 93.1 % of pages"),
            std::make_pair(Status::misplaced, std::string("93.1 % of pages")));
  EXPECT_EQ(parse_status_text("no FMA in sse2"),
            std::make_pair(Status::absent, std::string("no FMA in sse2")));
  // "absent" as a bare word is a reason like any other, and comes back as written.
  const auto [status, reason] = parse_status_text("absent");
  EXPECT_EQ(status_text(status, reason), "absent");
}

TEST(Vocabulary, MemoriesAreTheSameByOsIndex) {
  EXPECT_EQ((MemoryRef{0, 4}), (MemoryRef{-1, 4}));
  EXPECT_NE((MemoryRef{0, 4}), (MemoryRef{0, 5}));
  EXPECT_EQ((MemoryRef{2, 17}).text(), "17");
}

}  // namespace
}  // namespace larm
