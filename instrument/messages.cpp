// Rate-limited messages on stderr.
#include "instrument/messages.h"

#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace larm::instrument {
namespace {

std::array<std::atomic<int>, static_cast<std::size_t>(MessageKind::count)> g_printed{};

bool quiet() {
  const char* value = std::getenv("LARM_QUIET");
  return value != nullptr && *value != '\0' && std::strcmp(value, "0") != 0;
}

}  // namespace

void report(MessageKind kind, const std::string& text) {
  if (quiet()) return;
  const int printed = g_printed[static_cast<std::size_t>(kind)].fetch_add(1);
  // One fprintf per line: stdio locks the stream, so lines of concurrent threads do not mix.
  if (printed < kMaxMessagesPerKind) {
    std::fprintf(stderr, "larm: %s\n", text.c_str());
  } else if (printed == kMaxMessagesPerKind) {
    std::fprintf(stderr, "larm: further messages like the last one are suppressed\n");
  }
}

void reset_message_counts() {
  for (auto& printed : g_printed) printed.store(0);
}

}  // namespace larm::instrument
