// larm kernels: the generated kernels with their metadata; --dump writes code and disassembly.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

#include "codegen/factory.h"
#include "results/atomic_file.h"
#include "tools/cli_options.h"
#include "tools/cli_outputs.h"
#include "tools/commands.h"

namespace larm::cli {

namespace {
struct KernelsOptions {
  bool all = false;
  std::vector<std::string> dump;  // NAME DIR
};

std::string registers_text(const std::set<int>& registers) {
  if (registers.empty()) return "-";
  return std::to_string(registers.size()) + " (" + std::to_string(*registers.begin()) + "-" +
         std::to_string(*registers.rbegin()) + ")";
}

int run_kernels(const KernelsOptions& options, const GlobalOptions& global) {
  (void)global;
  const std::vector<larm::Isa> isas = options.all ? codegen::isa_family() : codegen::usable_isas();
  const std::vector<codegen::KernelSpec> specs = codegen::kernel_catalog(isas);
  if (!options.dump.empty()) {
    const std::string& wanted = options.dump[0];
    const std::filesystem::path dir = options.dump[1];
    for (const codegen::KernelSpec& spec : codegen::kernel_catalog(codegen::isa_family())) {
      if (codegen::kernel_name(spec) != wanted) continue;
      const results::OutputClaim claim = claim_output(dir, "larm kernels --dump");
      for (const auto& file : codegen::make_kernel(spec)->dump(dir)) {
        std::cout << file.string() << "\n";
      }
      return 0;
    }
    throw UsageError("no kernel named '" + wanted + "' (larm kernels --all lists them)");
  }
  std::printf("%-34s %9s %9s %7s %7s %9s %s\n", "kernel (per loop iteration)", "loaded B",
              "stored B", "FLOPs", "instr", "overhead", "vector registers");
  for (const codegen::KernelSpec& spec : specs) {
    const auto kernel = codegen::make_kernel(spec);
    const codegen::KernelMetadata& m = kernel->metadata();
    std::printf("%-34s %9llu %9llu %7llu %7llu %8.1f%% %s\n", codegen::kernel_name(spec).c_str(),
                static_cast<unsigned long long>(m.bytes_loaded),
                static_cast<unsigned long long>(m.bytes_stored),
                static_cast<unsigned long long>(m.flops),
                static_cast<unsigned long long>(m.instructions), 100 * m.loop_overhead_fraction(),
                registers_text(m.vector_registers).c_str());
  }
  if (!options.all) {
    std::printf("(ISAs usable here; --all lists the kernels of every ISA)\n");
  }
  return 0;
}
}  // namespace

void setup_kernels(CLI::App& app, GlobalOptions& global, Action& action) {
  auto options = std::make_shared<KernelsOptions>();
  CLI::App* command =
      app.add_subcommand("kernels", "list the generated kernels and their metadata");
  command->add_flag("--all", options->all, "every ISA, not only those usable here");
  command
      ->add_option("--dump", options->dump,
                   "write kernel NAME's machine code (and its disassembly if objdump exists) "
                   "into DIR")
      ->expected(2)
      ->type_name("NAME DIR");
  command->callback([options, &global, &action] {
    action = [options, &global] { return run_kernels(*options, global); };
  });
}

}  // namespace larm::cli
