// Golden tests of the result codecs: the reference results and the fixtures are read and
// rewritten, and must come back field by field (JSON) and byte by byte (CSV) as stored.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "results/hybrid_codec.h"
#include "results/records.h"
#include "results/region_records.h"
#include "results/store.h"

namespace {

const std::filesystem::path kSource = LARM_SOURCE_DIR;
const std::filesystem::path kReference = kSource / "results/reference/dev-zen5-2vcpu";
const std::filesystem::path kFourDomains = kSource / "tests/fixtures/four-domain-hbm";

nlohmann::json read_json(const std::filesystem::path& file) {
  std::ifstream in(file);
  return nlohmann::json::parse(in);
}

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every field that differs, as JSON Patch paths, so a failure names them all.
void expect_same_fields(const nlohmann::json& original, const nlohmann::json& rewritten) {
  const nlohmann::json patch = nlohmann::json::diff(original, rewritten);
  for (const auto& operation : patch) {
    ADD_FAILURE()
        << operation["op"].get<std::string>() << " " << operation["path"].get<std::string>()
        << (operation.contains("value") ? " -> " + operation["value"].dump() : "")
        << (operation["op"] != "add"
                ? " (was " + original.at(nlohmann::json::json_pointer(operation["path"])).dump() +
                      ")"
                : "");
  }
}

class TemporaryDirectory {
 public:
  TemporaryDirectory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "larm-codec-XXXXXX").string();
    path_ = ::mkdtemp(pattern.data());
  }
  ~TemporaryDirectory() { std::filesystem::remove_all(path_); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace

TEST(CodecGolden, ReferenceResultsComeBackFieldByField) {
  for (const auto& dir : {kReference, kFourDomains}) {
    SCOPED_TRACE(dir.string());
    const nlohmann::json original = read_json(dir / "results.json");
    expect_same_fields(original,
                       larm::results::to_json(larm::results::results_from_json(original)));
  }
}

TEST(CodecGolden, ReferenceCsvFilesAreRewrittenByteForByte) {
  TemporaryDirectory out;
  larm::results::save_results(out.path(), larm::results::load_results(kReference));
  for (const char* name : {"roofs.csv", "sweep.csv", "latency.csv", "validation.csv"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(read_text(out.path() / name), read_text(kReference / name));
  }
  expect_same_fields(read_json(kReference / "results.json"),
                     read_json(out.path() / "results.json"));
}

TEST(CodecGolden, StoredHybridModelComesBackFieldByField) {
  const nlohmann::json original = read_json(kFourDomains / "hybrid.json");
  expect_same_fields(original, larm::hybrid::to_json(larm::hybrid::hybrid_from_json(original)));
}

TEST(CodecGolden, ReferenceRegionsComeBackFieldByField) {
  for (const char* run : {"regions-triad-firsttouch", "regions-triad-interleave"}) {
    SCOPED_TRACE(run);
    const nlohmann::json original = read_json(kReference / run / "regions.json");
    expect_same_fields(original,
                       larm::regions::to_json(larm::regions::regions_from_json(original)));
  }
}
