// LARM_CHECK: silent when its condition holds, one std::logic_error naming the file, the line, the
// condition and the details when it does not, and one expression in an unbraced if-else.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "results/check.h"

namespace {

int evaluations = 0;
bool counted(bool value) {
  ++evaluations;
  return value;
}

TEST(Check, HoldsSilentlyAndEvaluatesItsConditionOnce) {
  evaluations = 0;
  EXPECT_NO_THROW(LARM_CHECK(counted(true)) << "never shown");
  EXPECT_EQ(evaluations, 1);
}

TEST(Check, NamesTheFileTheLineTheConditionAndTheDetails) {
  const int index = 40;
  try {
    LARM_CHECK(index < 32) << "register " << index;
    FAIL() << "no exception";
  } catch (const std::logic_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("internal error at tests/check_test.cpp:"), std::string::npos)
        << message;
    EXPECT_NE(message.find("index < 32 failed: register 40"), std::string::npos) << message;
  }
  try {
    LARM_CHECK(false);
    FAIL() << "no exception";
  } catch (const std::logic_error& e) {
    EXPECT_TRUE(std::string(e.what()).ends_with(": false failed")) << e.what();
  }
}

TEST(Check, IsOneExpressionInAnUnbracedIfElse) {
  bool else_taken = false;
  const bool outer = false;
  if (outer)
    LARM_CHECK(false) << "the if's";
  else
    else_taken = true;
  EXPECT_TRUE(else_taken);
}

}  // namespace
