// Shared set-up of the region API tests: a fresh recorder, a temporary output directory, and the
// regions.json it produced.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "instrument/recorder.h"
#include "larm/region.h"

namespace larm::test {

class RegionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"LARM_OUT", "LARM_LABEL", "LARM_MAX_REGIONS", "LARM_QUIET",
                             "LARM_ACCESS_BYTES", "LARM_COUNTERS"}) {
      ::unsetenv(name);
    }
    instrument::process_recorder().reset_for_testing();
    out_dir_ = std::filesystem::temp_directory_path() /
               ("larm-region-test-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(out_dir_);
  }
  void TearDown() override {
    instrument::process_recorder().reset_for_testing();
    std::filesystem::remove_all(out_dir_);
  }

  std::string out_dir() const { return out_dir_.string(); }

  nlohmann::json read_regions(const std::string& stem = "regions") const {
    std::ifstream in(out_dir_ / (stem + ".json"));
    EXPECT_TRUE(in.good()) << "missing " << (out_dir_ / (stem + ".json"));
    return nlohmann::json::parse(in);
  }

 public:
  static const nlohmann::json* find_region(const nlohmann::json& doc, const std::string& name) {
    for (const auto& region : doc.at("regions")) {
      if (region.at("name") == name) return &region;
    }
    return nullptr;
  }

 protected:
  // Busy work that the compiler cannot drop, about `microseconds` long.
  static void spin_for(double microseconds) {
    const auto until =
        std::chrono::steady_clock::now() + std::chrono::duration<double, std::micro>(microseconds);
    while (std::chrono::steady_clock::now() < until) {
    }
  }

 private:
  std::filesystem::path out_dir_;
};

}  // namespace larm::test
