// What the recorder's files (recorder.cpp: the regions; recorder_data.cpp: the data tags;
// recorder_snapshot.cpp: the queries, snapshot and finalize) share beside recorder.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "instrument/recorder.h"
#include "platform/arch.h"
#include "platform/clock.h"

namespace larm::instrument::recorder_parts {

// Set once by init, before the recorder turns active (release); read after an acquire of it.
extern bool g_use_tsc;

inline std::uint64_t now_ticks() {
  return g_use_tsc ? platform::arch::counter_now() : platform::monotonic_raw_ns();
}

// Shortest run over which the TSC rate is derived at finalize (error ~ 1e-5 at 20 ms).
inline constexpr std::uint64_t kMinCalibrationNs = 20'000'000;
// A tag whose pages are still untouched is queried again at most this many times.
inline constexpr int kMaxDataRequeries = 8;

// A region name as messages show it: quoted, its first 60 bytes.
std::string shown_name(std::string_view name);
// The name as recorded, or nullopt (with a message) when it cannot name a region.
std::optional<std::string_view> checked_name(const char* name, const char* function,
                                             bool announce_truncation);
// A record's counts dropped, its name, CPU and open depth kept.
void reset_counts(RegionRecord& record);

// recorder_data.cpp
bool has_untouched_pages(const DataTag& tag);
// Where the pages of a handle's runs sit now (kMaxPagesQueried pages at most).
void query_handle(DataHandle& handle);

}  // namespace larm::instrument::recorder_parts
