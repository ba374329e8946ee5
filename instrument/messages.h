// One-line messages of the region library on stderr ("larm: ..."), at most a few per kind so
// that a misuse inside a hot loop cannot flood the application's output.
#pragma once

#include <string>

namespace larm::instrument {

enum class MessageKind {
  misuse,     // end without begin, mismatched names, calls after finalize...
  bad_name,   // empty, NULL or truncated names
  limit,      // too many distinct regions, too many data tags
  placement,  // page queries that failed
  lifecycle,  // init/finalize, fork, open regions at finalize, output files
  count
};

// Prints "larm: " + text on stderr unless LARM_QUIET is set; after kMaxMessagesPerKind of a
// kind, says once that further ones are suppressed. Thread-safe.
void report(MessageKind kind, const std::string& text);
inline constexpr int kMaxMessagesPerKind = 20;

// Forgets how many messages were printed (tests, and a fork()ed child).
void reset_message_counts();

}  // namespace larm::instrument
