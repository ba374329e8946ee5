// The journal of a characterization: every measurement run, as soon as it is done,
// appended to DIR/journal.jsonl and synced, so that `larm characterize --resume DIR` continues a
// run that was interrupted (Ctrl-C, SIGTERM, kill -9, power loss) from the last saved one, with
// the same plan and provenance. The first line is the header (the plan's options, the provenance,
// the topology); each further line one run of a measurement in one pass: its records, the
// repetitions it calibrated and the run's elapsed seconds. A torn last line (power loss during the
// write) is left out.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

#include "results/records.h"

namespace larm::characterize {

inline constexpr const char* kJournalFile = "journal.jsonl";

// A journal that cannot be read or trusted: bad input, named in one line (exit 2), found before
// any measurement.
class JournalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct JournalEntry {
  results::Results records;  // what the run gave (one measurement, one pass)
  std::uint64_t repetitions = 0;
  double elapsed_seconds = 0;  // since the run's start, when it ended
};

class RunJournal {
 public:
  // A new journal in dir (none may be there), its header written.
  static RunJournal create(const std::filesystem::path& dir, const nlohmann::json& header);
  // The journal of an interrupted run in dir: its header and runs. Read as every input file is
  // (results/input_file.h: a regular file, bounded, strict JSON with numbers in range and
  // printable strings), each run's records checked against the results schema with the header's
  // provenance and topology. Throws JournalError naming the file, the line and the problem.
  static RunJournal open(const std::filesystem::path& dir);

  RunJournal(RunJournal&& other) noexcept;
  RunJournal& operator=(RunJournal&&) = delete;
  ~RunJournal();

  const nlohmann::json& header() const { return header_; }
  std::size_t kept() const { return entries_.size(); }

  // The run of measurement i in pass `pass` done before the interruption, if it was.
  const JournalEntry* find(std::size_t i, int pass) const;
  // Appends a run and syncs the file.
  void append(std::size_t i, int pass, const JournalEntry& entry);

 private:
  RunJournal(int fd, nlohmann::json header) : fd_(fd), header_(std::move(header)) {}
  int fd_ = -1;
  nlohmann::json header_;
  std::map<std::pair<std::size_t, int>, JournalEntry> entries_;
};

}  // namespace larm::characterize
