// Misuse of the region API: a message on stderr, -1, never a crash, and the rest of the data kept.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>

#include <string>

#include "tests/regions/region_test_support.h"

namespace larm::test {
namespace {

using ::testing::HasSubstr;
using ::testing::internal::CaptureStderr;
using ::testing::internal::GetCapturedStderr;

// Records one well-formed region, so that each test can check it survived the misuse.
void record_good_region() {
  larm_region_begin("good");
  larm_region_add("good", 1.0, 1.0);
  larm_region_end("good");
}

void expect_good_region(const nlohmann::json& doc) {
  const auto* good = RegionTest::find_region(doc, "good");
  ASSERT_NE(good, nullptr);
  EXPECT_EQ(good->at("machine").at("calls"), 1);
}

TEST_F(RegionTest, EndWithoutBegin) {
  ASSERT_EQ(larm_init(out_dir().c_str()), 0);
  record_good_region();
  CaptureStderr();
  EXPECT_EQ(larm_region_end("never-opened"), -1);
  EXPECT_THAT(GetCapturedStderr(), HasSubstr("without a matching begin"));
  ASSERT_EQ(larm_finalize(), 0);
  expect_good_region(read_regions());
}

TEST_F(RegionTest, EndOfAnOuterRegionClosesTheInnerOnes) {
  ASSERT_EQ(larm_init(out_dir().c_str()), 0);
  larm_region_begin("a");
  larm_region_begin("b");
  CaptureStderr();
  EXPECT_EQ(larm_region_end("a"), 0);
  EXPECT_THAT(GetCapturedStderr(), HasSubstr("also closes \"b\""));
  record_good_region();  // the stack is empty again: a new region starts at the top
  ASSERT_EQ(larm_finalize(), 0);
  const auto doc = read_regions();
  EXPECT_EQ(find_region(doc, "a")->at("machine").at("calls"), 1);
  EXPECT_EQ(find_region(doc, "b")->at("machine").at("calls"), 1);
  expect_good_region(doc);
  EXPECT_TRUE(doc.at("open_at_finalize").empty());
}

TEST_F(RegionTest, EndOfARegionThatIsNotOpenIsIgnored) {
  ASSERT_EQ(larm_init(out_dir().c_str()), 0);
  larm_region_begin("open");
  CaptureStderr();
  EXPECT_EQ(larm_region_end("other"), -1);
  EXPECT_THAT(GetCapturedStderr(), HasSubstr("innermost open region of this thread is \"open\""));
  EXPECT_EQ(larm_region_end("open"), 0);
  ASSERT_EQ(larm_finalize(), 0);
  EXPECT_EQ(find_region(read_regions(), "open")->at("machine").at("calls"), 1);
}

TEST_F(RegionTest, RegionStillOpenAtFinalizeIsClosedThere) {
  ASSERT_EQ(larm_init(out_dir().c_str()), 0);
  record_good_region();
  larm_region_begin("left-open");
  spin_for(1000);
  CaptureStderr();
  ASSERT_EQ(larm_finalize(), 0);
  EXPECT_THAT(GetCapturedStderr(), HasSubstr("\"left-open\" on thread 0 still open"));
  const auto doc = read_regions();
  expect_good_region(doc);
  EXPECT_GE(find_region(doc, "left-open")->at("machine").at("seconds").get<double>(), 1e-3);
  EXPECT_EQ(doc.at("open_at_finalize").size(), 1u);
}

TEST_F(RegionTest, FinalizeTwiceKeepsTheFirstOutput) {
  ASSERT_EQ(larm_init(out_dir().c_str()), 0);
  record_good_region();
  ASSERT_EQ(larm_finalize(), 0);
  CaptureStderr();
  EXPECT_EQ(larm_finalize(), -1);
  EXPECT_EQ(larm_region_begin("late"), -1);
  EXPECT_EQ(larm_region_end("late"), -1);
  const std::string messages = GetCapturedStderr();
  EXPECT_THAT(messages, HasSubstr("larm_finalize called again"));
  EXPECT_THAT(messages, HasSubstr("after larm_finalize"));
  const auto doc = read_regions();
  expect_good_region(doc);
  EXPECT_EQ(find_region(doc, "late"), nullptr);
}

TEST_F(RegionTest, BeginBeforeInitInitializesFromTheEnvironment) {
  ::setenv("LARM_OUT", out_dir().c_str(), 1);
  record_good_region();
  CaptureStderr();
  EXPECT_EQ(larm_init("/elsewhere"), -1);  // already initialized by the first begin
  EXPECT_THAT(GetCapturedStderr(), HasSubstr("larm_init called twice"));
  ASSERT_EQ(larm_finalize(), 0);
  expect_good_region(read_regions());
}

TEST_F(RegionTest, EmptyAndNullNamesAreRefused) {
  ASSERT_EQ(larm_init(out_dir().c_str()), 0);
  CaptureStderr();
  EXPECT_EQ(larm_region_begin(""), -1);
  EXPECT_EQ(larm_region_end(""), -1);  // pops the refused begin silently
  EXPECT_EQ(larm_region_begin(nullptr), -1);
  EXPECT_EQ(larm_region_end(nullptr), -1);
  EXPECT_EQ(larm_region_add(nullptr, 1, 1), -1);
  const double value = 0;
  EXPECT_EQ(larm_region_data("", &value, sizeof value), -1);
  const std::string messages = GetCapturedStderr();
  EXPECT_THAT(messages, HasSubstr("empty region name"));
  EXPECT_THAT(messages, HasSubstr("NULL region name"));
  record_good_region();  // nothing was left open by the refused begins
  ASSERT_EQ(larm_finalize(), 0);
  const auto doc = read_regions();
  expect_good_region(doc);
  EXPECT_EQ(doc.at("regions").size(), 1u);
  EXPECT_TRUE(doc.at("open_at_finalize").empty());
}

TEST_F(RegionTest, VeryLongNameIsTruncatedConsistently) {
  ASSERT_EQ(larm_init(out_dir().c_str()), 0);
  const std::string name(100000, 'x');
  CaptureStderr();
  EXPECT_EQ(larm_region_begin(name.c_str()), 0);
  EXPECT_EQ(larm_region_end(name.c_str()), 0);
  EXPECT_THAT(GetCapturedStderr(), HasSubstr("truncated"));
  ASSERT_EQ(larm_finalize(), 0);
  const auto doc = read_regions();
  ASSERT_EQ(doc.at("regions").size(), 1u);
  EXPECT_EQ(doc.at("regions").at(0).at("name").get<std::string>(),
            std::string(instrument::kMaxNameBytes, 'x'));
}

TEST_F(RegionTest, InvalidUtf8NameStillWritesTheOutput) {
  ASSERT_EQ(larm_init(out_dir().c_str()), 0);
  record_good_region();
  larm_region_begin("bad\xff\xfename");
  larm_region_end("bad\xff\xfename");
  ASSERT_EQ(larm_finalize(), 0);
  const auto doc = read_regions();
  expect_good_region(doc);
  EXPECT_EQ(doc.at("regions").size(), 2u);
}

TEST_F(RegionTest, MillionDistinctNamesAreCappedNotFatal) {
  ASSERT_EQ(larm_init(out_dir().c_str()), 0);
  record_good_region();
  CaptureStderr();
  char name[32];
  for (int i = 0; i < 1000000; ++i) {
    std::snprintf(name, sizeof name, "r%d", i);
    larm_region_begin(name);
    larm_region_end(name);
  }
  const std::string messages = GetCapturedStderr();
  EXPECT_THAT(messages, HasSubstr("distinct regions on thread 0"));
  EXPECT_THAT(messages, HasSubstr("LARM_MAX_REGIONS"));
  EXPECT_LT(messages.size(), 20000u);  // rate-limited, not a million lines
  ASSERT_EQ(larm_finalize(), 0);
  const auto doc = read_regions();
  expect_good_region(doc);
  EXPECT_EQ(doc.at("regions").size(), instrument::kDefaultMaxRegionsPerThread);
}

// A refused begin (NULL or empty name, or past LARM_MAX_REGIONS) keeps a frame without a record:
// an end that walked past that empty frame dereferenced it (SIGSEGV, every region lost), and an end
// of a region open around it closed the refused frame instead.
TEST_F(RegionTest, EndsAroundRefusedBeginsNeitherCrashNorLoseRegions) {
  ::setenv("LARM_MAX_REGIONS", "3", 1);
  ASSERT_EQ(larm_init(out_dir().c_str()), 0);
  ::unsetenv("LARM_MAX_REGIONS");
  CaptureStderr();
  record_good_region();
  EXPECT_EQ(larm_region_begin("outer"), 0);
  EXPECT_EQ(larm_region_begin(nullptr), -1);
  EXPECT_EQ(larm_region_begin(""), -1);
  EXPECT_EQ(larm_region_begin("inner"), 0);
  EXPECT_EQ(larm_region_begin("past-the-limit"), -1);
  EXPECT_EQ(larm_region_end("not-open"), -1);        // walks past refused and open frames
  EXPECT_EQ(larm_region_end("past-the-limit"), -1);  // the refused region's own end
  EXPECT_EQ(larm_region_end("inner"), 0);
  EXPECT_EQ(larm_region_end("outer"), 0);  // closes the two refused frames inside it
  EXPECT_EQ(larm_region_end(nullptr), -1);
  EXPECT_EQ(larm_region_add("outer", INFINITY, 8), -1);
  EXPECT_EQ(larm_region_add_rw("outer", 1, INFINITY, INFINITY), -1);
  // Beyond the 1e18 larm's files hold, alone or summed: refused as infinity is.
  EXPECT_EQ(larm_region_add("outer", 1e300, 8), -1);
  EXPECT_EQ(larm_region_add("outer", 1, 1e19), -1);
  EXPECT_EQ(larm_region_add("outer", 6e17, 0), 0);
  EXPECT_EQ(larm_region_add("outer", 6e17, 0), -1);
  const std::string messages = GetCapturedStderr();
  EXPECT_THAT(messages, HasSubstr("FLOPs above 1e18"));
  EXPECT_THAT(messages, HasSubstr("bytes above 1e18"));
  EXPECT_THAT(messages, HasSubstr("would pass 1e18"));
  ASSERT_EQ(larm_finalize(), 0);
  const auto doc = read_regions();
  expect_good_region(doc);
  int found = 0;
  for (const auto& region : doc.at("regions")) {
    if (region.at("name") == "inner" || region.at("name") == "outer") {
      ++found;
      EXPECT_EQ(region.at("machine").at("calls"), 1);
      if (region.at("name") == "inner") {
        EXPECT_NE(region.at("machine").at("flops_source"), "declared");
      } else {  // the one addition that stayed under 1e18
        EXPECT_EQ(region.at("machine").at("flops"), 6e17);
      }
    }
  }
  EXPECT_EQ(found, 2);
  EXPECT_TRUE(doc.at("open_at_finalize").empty());
}

TEST_F(RegionTest, UnwritableDirectoryFallsBackToTheTemporaryDirectory) {
  // A directory below a regular file cannot be created, even by root.
  std::filesystem::create_directories(out_dir());
  std::ofstream(out_dir() + "/file") << "not a directory";
  const std::string target = out_dir() + "/file/sub";
  CaptureStderr();
  ASSERT_EQ(larm_init(target.c_str()), 0);
  record_good_region();
  EXPECT_EQ(larm_finalize(), -1);
  const std::string messages = GetCapturedStderr();
  // A fresh directory of its own (mkdtemp), not a predictable name: larm-regions-<pid>-XXXXXX.
  const std::string prefix = (std::filesystem::temp_directory_path() /
                              ("larm-regions-" + std::to_string(::getpid()) + "-"))
                                 .string();
  const std::size_t at = messages.find(prefix);
  ASSERT_NE(at, std::string::npos) << messages;
  const std::filesystem::path fallback = messages.substr(at, prefix.size() + 6);
  EXPECT_EQ(std::filesystem::status(fallback).permissions() & std::filesystem::perms::all,
            std::filesystem::perms::owner_all);
  std::ifstream in(fallback / "regions.json");
  ASSERT_TRUE(in.good());
  expect_good_region(nlohmann::json::parse(in));
  std::filesystem::remove_all(fallback);
}

// A region call from a signal handler that interrupts liblarm on the same thread used
// to wait forever for the thread's own lock. It is refused (-1) and counted; the run goes on.
std::atomic<long> g_handler_calls{0};
std::atomic<long> g_handler_refused{0};

void record_from_handler(int) {
  g_handler_calls.fetch_add(1);
  const int begun = larm_region_begin("from-handler");
  const int ended = begun == 0 ? larm_region_end("from-handler") : 0;
  if (begun != 0 || ended != 0) g_handler_refused.fetch_add(1);
}

TEST_F(RegionTest, CallsFromASignalHandlerInterruptingLiblarmAreRefusedNotHung) {
  ASSERT_EQ(larm_init(out_dir().c_str()), 0);
  // Registered here, so that the handler never allocates (the API's rule for handlers).
  ASSERT_EQ(larm_region_register("from-handler"), 0);
  struct sigaction action {};
  action.sa_handler = record_from_handler;
  sigemptyset(&action.sa_mask);
  struct sigaction previous {};
  ASSERT_EQ(sigaction(SIGALRM, &action, &previous), 0);
  itimerval every{{0, 50}, {0, 50}};  // every 50 µs: some land inside liblarm
  ASSERT_EQ(setitimer(ITIMER_REAL, &every, nullptr), 0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  while (std::chrono::steady_clock::now() < deadline &&
         (g_handler_refused.load() == 0 || g_handler_calls.load() < 100)) {
    for (int i = 0; i < 1000; ++i) {
      larm_region_begin("busy");
      larm_region_add("busy", 1.0, 8.0);
      larm_region_end("busy");
    }
  }
  ::usleep(1000);  // a blocking call: where ThreadSanitizer delivers the signals it deferred
  itimerval off{};
  setitimer(ITIMER_REAL, &off, nullptr);
  // One still pending is ignored, not given to the default action (which ends the process).
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGALRM, &ignore, nullptr);
  sigaction(SIGALRM, &previous, nullptr);
  CaptureStderr();
  ASSERT_EQ(larm_finalize(), 0);  // reached: nothing hung
  const std::string messages = GetCapturedStderr();
  std::printf("handler calls %ld, refused %ld\n", g_handler_calls.load(), g_handler_refused.load());
  EXPECT_GT(g_handler_calls.load(), 0);
  if (g_handler_refused.load() > 0) {
    EXPECT_THAT(messages, HasSubstr(std::to_string(g_handler_refused.load()) +
                                    " region calls interrupted liblarm"));
  }
  const auto doc = read_regions();
  const auto* from_handler = find_region(doc, "from-handler");
  ASSERT_NE(from_handler, nullptr);
  EXPECT_EQ(from_handler->at("machine").at("calls").get<long>(),
            g_handler_calls.load() - g_handler_refused.load());
}

// A second process recording into a directory another one holds writes its own
// regions-pid<N>.json and says so, instead of replacing the first one's regions.json.
TEST_F(RegionTest, ADirectoryClaimedByAnotherRecorderGetsAFileOfItsOwn) {
  std::filesystem::create_directories(out_dir());
  const int held = ::open((out_dir() + "/.larm-lock").c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(held, 0);
  ASSERT_EQ(::flock(held, LOCK_EX | LOCK_NB), 0);
  ASSERT_EQ(::write(held, "process 1, another recorder\n", 29), 29);
  CaptureStderr();
  ASSERT_EQ(larm_init(out_dir().c_str()), 0);
  // The other process ends first: this one keeps the file it chose at init, never the other's.
  ::close(held);
  record_good_region();
  ASSERT_EQ(larm_finalize(), 0);
  const std::string messages = GetCapturedStderr();
  const std::string own = "regions-pid" + std::to_string(::getpid()) + ".json";
  EXPECT_THAT(messages, HasSubstr("is in use by process 1, another recorder"));
  EXPECT_THAT(messages, HasSubstr(own));
  EXPECT_TRUE(std::filesystem::exists(out_dir() + "/" + own));
  EXPECT_FALSE(std::filesystem::exists(out_dir() + "/regions.json"));
}

// A fork()ed child writes its own regions-pid<N>.json (here at exit, without larm_finalize),
// and the parent's output holds only the parent's calls.
TEST_F(RegionTest, ForkedChildWritesItsOwnFile) {
  ASSERT_EQ(larm_init(out_dir().c_str()), 0);
  record_good_region();
  larm_region_begin("around-fork");
  ::setenv("LARM_QUIET", "1", 1);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    larm_region_begin("child-only");
    larm_region_end("child-only");
    larm_region_end("around-fork");
    std::exit(0);  // the atexit handler writes
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ::unsetenv("LARM_QUIET");
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  larm_region_end("around-fork");
  ASSERT_EQ(larm_finalize(), 0);
  const auto parent = read_regions();
  expect_good_region(parent);
  EXPECT_EQ(find_region(parent, "child-only"), nullptr);
  EXPECT_EQ(find_region(parent, "around-fork")->at("machine").at("calls"), 1);
  const auto from_child = read_regions("regions-pid" + std::to_string(child));
  EXPECT_EQ(find_region(from_child, "child-only")->at("machine").at("calls"), 1);
  EXPECT_EQ(find_region(from_child, "around-fork")->at("machine").at("calls"), 1);
  EXPECT_EQ(find_region(from_child, "good")->at("machine").at("calls"), 0);
}

}  // namespace
}  // namespace larm::test
