// How the subcommands take their options: the usage-error channel, the options every command
// accepts, word options from the vocabulary, number and list checks.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "results/number_text.h"
#include "results/usage_error.h"
#include "results/vocabulary.h"

namespace larm::cli {

using larm::UsageError;

struct GlobalOptions {
  std::string topology_file;  // --topology: a saved hwloc XML instead of this machine
  bool quiet = false;
};

// --topology: on the commands that work on a topology without measuring it (topology, plan).
void add_topology_option(CLI::App& command, GlobalOptions& global);
// --quiet, -q: on the commands that print progress or a summary besides their errors.
void add_quiet_option(CLI::App& command, GlobalOptions& global);

// The value of a word option that CLI11 has already checked against the vocabulary's words.
template <VocabularyWord E>
E parse_word(const std::string& text) {
  const std::optional<E> value = parse<E>(text);
  if (!value) {
    throw UsageError("unknown " + std::string(Vocabulary<E>::what) + " '" + text + "' (" +
                     word_list<E>() + ")");
  }
  return *value;
}

// An option whose value is one of a vocabulary's words (results/vocabulary.h), bound to the enum
// itself: the words accepted (all of the vocabulary's, or `allowed`) and the default shown come
// from its table, never typed again here.
template <VocabularyWord E>
CLI::Option* add_word_option(CLI::App& command, const std::string& flag, E& value,
                             const std::string& help, const std::vector<E>& allowed = all<E>()) {
  std::vector<std::string> texts;
  for (E e : allowed) texts.emplace_back(name(e));
  return command
      .add_option_function<std::string>(
          flag, [&value](const std::string& text) { value = parse_word<E>(text); }, help)
      ->check(CLI::IsMember(texts))
      ->default_str(name(value));
}

// --access (an access mix of the bandwidth roofs) and --precision (sp, dp), shared by the
// commands that read roofs.
void add_access_option(CLI::App& command, Access& access, const std::string& help);
void add_precision_option(CLI::App& command, Precision& precision, const std::string& help);

// --estimator (p90 or median) into `estimator`; `value` says what it gives a value to.
void add_estimator_option(CLI::App& command, Estimator& estimator, const std::string& value);

// Checks of number options, with short messages (CLI11's PositiveNumber prints DBL_MAX in full).
// NaN fails both; refuse_empty_values (command_line.h) also refuses NaN and infinities in every
// number option, with or without these.
CLI::Validator number_above_zero_up_to(double max);
// text as a number when all of it is one (strtod: "nan" and "inf" too), else nullopt.
std::optional<double> whole_number(const std::string& text);
CLI::Validator number_between(double low, double high);

// "0,2-4" -> {0,2,3,4}; throws UsageError on anything else.
std::vector<int> parse_index_list(const std::string& text, const std::string& what);

using results::parse_bytes;

// "a,b,,c" -> {"a", "b", "", "c"}; a trailing separator gives a last empty part.
std::vector<std::string> split(const std::string& text, char separator);

}  // namespace larm::cli
