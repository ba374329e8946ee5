// The vocabulary's tables: every word parses back to its value, unknown words are refused, and
// status texts keep the results files' format.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

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

// Every "enum" of a property named `key` anywhere in the schema, its "" (none) left out.
void collect_enums(const nlohmann::json& node, const std::string& key,
                   std::vector<std::set<std::string>>& found) {
  if (node.is_object()) {
    for (const auto& [name, value] : node.items()) {
      const nlohmann::json* words = nullptr;
      if (name == key && value.is_object() && value.contains("enum")) words = &value["enum"];
      if (name == key && value.is_object() && value.contains("items") &&
          value["items"].contains("enum")) {
        words = &value["items"]["enum"];
      }
      if (words != nullptr) {
        std::set<std::string> set;
        for (const auto& w : *words) {
          if (w != "") set.insert(w.get<std::string>());
        }
        found.push_back(set);
      }
      collect_enums(value, key, found);
    }
  } else if (node.is_array()) {
    for (const auto& item : node) collect_enums(item, key, found);
  }
}

template <typename E>
std::set<std::string> word_set() {
  const auto list = words<E>();
  return {list.begin(), list.end()};
}

// The JSON Schema of results.json spells the vocabulary out for validators: it must say the same
// words as the tables (the roofs' "access" holds both the access mixes and the FP operations).
TEST(Vocabulary, TheResultsSchemaListsTheSameWords) {
  std::ifstream in(std::filesystem::path(LARM_SOURCE_DIR) /
                   "results/schema/results-v1.schema.json");
  const nlohmann::json schema = nlohmann::json::parse(in);
  std::set<std::string> access_or_op = word_set<Access>();
  for (const auto& w : words<FlopOp>()) access_or_op.insert(w);
  const std::pair<const char*, std::vector<std::set<std::string>>> expected[] = {
      {"access", {word_set<Access>(), access_or_op}},
      {"isa", {word_set<Isa>()}},  // definitions/isa, which every ISA member refers to
      {"op", {word_set<FlopOp>()}},
      {"precision", {word_set<Precision>()}},
      {"placement", {word_set<Placement>(), {"contention", "congestion"}}},
  };
  for (const auto& [key, allowed] : expected) {
    std::vector<std::set<std::string>> found;
    collect_enums(schema, key, found);
    EXPECT_FALSE(found.empty()) << key;
    if (std::string(key) == "isa") {
      EXPECT_EQ(found.size(), 1u) << "one list of ISAs";
    }
    for (const auto& set : found) {
      EXPECT_NE(std::find(allowed.begin(), allowed.end(), set), allowed.end())
          << key << " lists words the vocabulary does not have, or misses some";
    }
  }
}

}  // namespace
}  // namespace larm
