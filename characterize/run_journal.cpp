// Appending to and reading back a characterization's journal.
#include "characterize/run_journal.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "results/atomic_file.h"
#include "results/input_file.h"

namespace larm::characterize {
namespace {

constexpr int kJournalVersion = 1;
// The most passes a journal line may name (a plan has at most as many passes as samples).
constexpr unsigned kMaxJournalPasses = 1000;

void write_all(int fd, const std::string& text, const std::filesystem::path& path) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw std::runtime_error("cannot write " + path.string() + ": " + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) {
    throw std::runtime_error("cannot sync " + path.string() + ": " + std::strerror(errno));
  }
}

// A journal line's records back as results: the header's provenance and topology added, which
// the lines leave out. results_from_json checks the whole against the results schema.
results::Results records_of(const nlohmann::json& line, const nlohmann::json& header) {
  nlohmann::json document = line.at("records");
  document["provenance"] = header.at("provenance");
  document["topology"] = header.at("topology");
  return results::results_from_json(document);
}

// A run's repetitions and its end in seconds since the run's start, beyond which a line is not
// one larm wrote: a sample's repetitions fit in 2^50 (a petabyte of 1-byte steps), and a run
// stops within kMaxRunSeconds.
constexpr double kMaxRepetitions = 1e15;
constexpr double kMaxElapsedSeconds = 1e7;

JournalEntry entry_of(const nlohmann::json& line, const nlohmann::json& header) {
  const auto repetitions = line.at("repetitions").get<double>();
  const auto elapsed = line.at("elapsed").get<double>();
  if (!(repetitions >= 0 && repetitions <= kMaxRepetitions) ||
      repetitions != std::floor(repetitions)) {
    throw std::runtime_error("repetitions out of range");
  }
  if (!(elapsed >= 0 && elapsed <= kMaxElapsedSeconds)) {
    throw std::runtime_error("elapsed seconds out of range");
  }
  return {records_of(line, header), static_cast<std::uint64_t>(repetitions), elapsed};
}

// A journal's header: the plan's options, the provenance and topology (checked as a results
// file's, with no records), the run's warnings.
void check_header(const nlohmann::json& header) {
  if (!header.is_object() || !header.contains("larm_journal") ||
      header.at("larm_journal") != kJournalVersion || !header.contains("provenance") ||
      !header.contains("topology") || !header.contains("plan") || !header.contains("warnings") ||
      !header.at("plan").is_object() || !header.at("warnings").is_array()) {
    throw std::runtime_error("not a larm journal of version " + std::to_string(kJournalVersion));
  }
  for (const auto& warning : header.at("warnings")) {
    if (!warning.is_string()) throw std::runtime_error("a warning that is no text");
  }
  nlohmann::json document = results::to_json(results::Results{});
  document["provenance"] = header.at("provenance");
  document["topology"] = header.at("topology");
  results::results_from_json(document);
}

}  // namespace

RunJournal RunJournal::create(const std::filesystem::path& dir, const nlohmann::json& header) {
  const std::filesystem::path path = dir / kJournalFile;
  const int fd = results::create_new_file(path);
  nlohmann::json head = header;
  head["larm_journal"] = kJournalVersion;
  RunJournal journal(fd, head);
  write_all(fd, head.dump() + "\n", path);
  results::sync_file_system(dir);
  return journal;
}

RunJournal RunJournal::open(const std::filesystem::path& dir) {
  const std::filesystem::path path = dir / kJournalFile;
  // Not through a link planted in the output, not waiting on a FIFO (refused as no regular file).
  const int fd = ::open(path.c_str(), O_RDWR | O_APPEND | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    throw JournalError("no journal of an interrupted run in " + dir.string() + " (" +
                       std::strerror(errno) + ")");
  }
  auto fail = [&](const std::string& why) {
    ::close(fd);
    throw JournalError(path.string() + ": " + why);
  };
  std::string text;
  try {
    text = results::read_input_descriptor(fd, path.string());
  } catch (const std::exception& e) {
    ::close(fd);
    throw JournalError(e.what());
  }
  // Each line ends with its newline; a last line without one is what a power loss cut short: it
  // is left out (and cut off, so that the next appended line starts clean).
  std::vector<std::string_view> lines;
  std::size_t good = 0;
  for (std::size_t start = 0, end; (end = text.find('\n', start)) != std::string::npos;
       start = end + 1) {
    lines.emplace_back(text.data() + start, end - start);
    good = end + 1;
  }
  if (lines.empty()) fail("it holds no header line");
  nlohmann::json header;
  try {
    header = results::parse_json_document(lines[0], "its first line");
    check_header(header);
  } catch (const std::exception& e) {
    fail(std::string("not a journal header: ") + e.what());
  }
  RunJournal journal(fd, header);
  for (std::size_t number = 1; number < lines.size(); ++number) {
    try {
      const nlohmann::json line = results::parse_json_document(lines[number], "the line");
      const std::size_t i = results::parse_index(std::to_string(line.at("i").get<long long>()),
                                                 "measurement", 100'000'000);
      const int pass = static_cast<int>(results::parse_index(
          std::to_string(line.at("pass").get<long long>()), "pass", kMaxJournalPasses));
      journal.entries_[{i, pass}] = entry_of(line, header);
    } catch (const std::exception& e) {
      throw JournalError(path.string() + ": line " + std::to_string(number + 1) +
                         " is not a measurement run (" + e.what() + ")");
    }
  }
  if (::ftruncate(fd, static_cast<off_t>(good)) != 0) {
    throw JournalError("cannot cut the torn end of " + path.string() + ": " + std::strerror(errno));
  }
  return journal;
}

RunJournal::RunJournal(RunJournal&& other) noexcept
    : fd_(other.fd_), header_(std::move(other.header_)), entries_(std::move(other.entries_)) {
  other.fd_ = -1;
}

RunJournal::~RunJournal() {
  if (fd_ >= 0) ::close(fd_);
}

const JournalEntry* RunJournal::find(std::size_t i, int pass) const {
  const auto it = entries_.find({i, pass});
  return it == entries_.end() ? nullptr : &it->second;
}

void RunJournal::append(std::size_t i, int pass, const JournalEntry& entry) {
  nlohmann::json records = results::to_json(entry.records);
  records.erase("provenance");
  records.erase("topology");
  const nlohmann::json line = {{"i", i},
                               {"pass", pass},
                               {"repetitions", entry.repetitions},
                               {"elapsed", entry.elapsed_seconds},
                               {"records", records}};
  write_all(fd_, line.dump() + "\n", kJournalFile);
}

}  // namespace larm::characterize
