// Why Valgrind could not run a program, read from its log (application/valgrind_tool.h): the
// lines Valgrind 3.19 writes when it cannot translate an instruction or read debug information.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "application/valgrind_tool.h"

namespace larm::application {
namespace {

namespace fs = std::filesystem;

// A log larm created, with `text` written as Valgrind writes it (through the descriptor).
std::string refusal_for(const std::string& text) {
  const fs::path dir =
      fs::temp_directory_path() / ("larm-valgrind-refusal-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string refusal;
  {
    const ValgrindLog log(dir / "valgrind.log");
    EXPECT_EQ(::write(log.descriptor(), text.data(), text.size()),
              static_cast<ssize_t>(text.size()));
    refusal = valgrind_refusal(log, "./app");
  }
  fs::remove_all(dir);
  return refusal;
}

TEST(ValgrindRefusal, AvxFiveTwelveNamesTheBuildsThatCount) {
  const std::string refusal = refusal_for(
      "==1== Command: ./app\n"
      "vex amd64->IR: unhandled instruction bytes: 0x62 0xF1 0xFD 0x48 0x28 0x45 0xFE\n");
  EXPECT_EQ(refusal.rfind("larm: error: ./app executes AVX-512 instructions", 0), 0u) << refusal;
  EXPECT_NE(refusal.find("x86-64-v3"), std::string::npos);
  EXPECT_NE(refusal.find("larm-cc"), std::string::npos);
  EXPECT_EQ(refusal.find('\n'), std::string::npos);
}

TEST(ValgrindRefusal, OtherInstructionNamesItsBytes) {
  const std::string refusal =
      refusal_for("vex amd64->IR: unhandled instruction bytes: 0xC4 0xE2 0x7D 0x5A\n");
  EXPECT_NE(refusal.find("bytes 0xC4 0xE2 0x7D 0x5A"), std::string::npos) << refusal;
}

TEST(ValgrindRefusal, DwarfFiveDebugInformationSaysHowToBuild) {
  // What Valgrind 3.19 writes for LULESH 2.0 built by clang 14 with -g (DWARF 5).
  const std::string refusal = refusal_for(
      "### unhandled dwarf2 abbrev form code 0x25\n"
      "### unhandled dwarf2 abbrev form code 0x23\n"
      "==1== Valgrind: debuginfo reader: ensure_valid failed:\n"
      "==1== Valgrind:   during call to ML_(img_get)\n"
      "==1== Valgrind: debuginfo reader: Possibly corrupted debuginfo file.\n"
      "==1== Valgrind: I can't recover.  Giving up.  Sorry.\n");
  EXPECT_EQ(
      refusal.rfind("larm: error: Valgrind 3.19 cannot read the debug information of ./app", 0), 0u)
      << refusal;
  EXPECT_NE(refusal.find("DWARF 5"), std::string::npos);
  EXPECT_NE(refusal.find("-gdwarf-4"), std::string::npos);
}

TEST(ValgrindRefusal, WarningsAloneAreNoRefusal) {
  // Forms it does not know, skipped: the program ran.
  EXPECT_EQ(refusal_for("### unhandled dwarf2 abbrev form code 0x25\n==1== \n"), "");
  EXPECT_EQ(refusal_for(""), "");
}

}  // namespace
}  // namespace larm::application
