// Appending to and reading back a characterization's journal.
#include "characterize/run_journal.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "results/atomic_file.h"

namespace larm::characterize {
namespace {

constexpr int kJournalVersion = 1;

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
// the lines leave out.
results::Results records_of(const nlohmann::json& line, const nlohmann::json& header) {
  nlohmann::json document = line.at("records");
  document["provenance"] = header.at("provenance");
  document["topology"] = header.at("topology");
  return results::results_from_json(document);
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
  const int fd = ::open(path.c_str(), O_RDWR | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    throw std::runtime_error("no journal of an interrupted run in " + dir.string() + " (" +
                             std::strerror(errno) + ")");
  }
  std::ifstream in(path);
  std::string text;
  if (!std::getline(in, text)) {
    ::close(fd);
    throw std::runtime_error(path.string() + " is empty");
  }
  nlohmann::json header;
  try {
    header = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception&) {
    ::close(fd);
    throw std::runtime_error(path.string() + ": its first line is not a journal header");
  }
  if (!header.is_object() || header.value("larm_journal", 0) != kJournalVersion ||
      !header.contains("provenance") || !header.contains("topology") || !header.contains("plan")) {
    ::close(fd);
    throw std::runtime_error(path.string() + ": not a larm journal of version " +
                             std::to_string(kJournalVersion));
  }
  RunJournal journal(fd, header);
  std::streamoff good = static_cast<std::streamoff>(text.size()) + 1;  // the header and its \n
  for (std::size_t number = 2; std::getline(in, text); ++number) {
    // A line without its newline is one a power loss cut short: it and what follows are left
    // out (and cut off, so that the next appended line starts clean).
    if (in.eof()) break;
    try {
      const nlohmann::json line = nlohmann::json::parse(text);
      JournalEntry entry{records_of(line, header), line.at("repetitions").get<std::uint64_t>(),
                         line.at("elapsed").get<double>()};
      journal.entries_[{line.at("i").get<std::size_t>(), line.at("pass").get<int>()}] =
          std::move(entry);
    } catch (const std::exception& e) {
      throw std::runtime_error(path.string() + ": line " + std::to_string(number) +
                               " is not a measurement run (" + e.what() + ")");
    }
    good += static_cast<std::streamoff>(text.size()) + 1;
  }
  if (::ftruncate(fd, good) != 0) {
    throw std::runtime_error("cannot cut the torn end of " + path.string() + ": " +
                             std::strerror(errno));
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
