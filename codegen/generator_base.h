// What every architecture's generator base (codegen/<arch>/generator.h) shares: the
// specification and what it fixes (ISA, precision), the metadata that its emit helpers count
// between begin_body() and end_body(), and building once: generate() emits the code,
// make_executable() maps it.
#pragma once

#include "codegen/kernel.h"

namespace larm::codegen {

class GeneratorBase : public Kernel {
 public:
  // The generated code's signature: one pointer to its arguments.
  using Function = void (*)(const KernelArgs*);

  GeneratorBase(const GeneratorBase&) = delete;
  GeneratorBase& operator=(const GeneratorBase&) = delete;

  // Emits the code (once) and makes it executable.
  void build() {
    if (built_) return;
    generate();
    make_executable();
    built_ = true;
  }

  const KernelSpec& spec() const override { return spec_; }
  const KernelMetadata& metadata() const override { return metadata_; }

 protected:
  // traits() refuses another architecture's ISA here.
  explicit GeneratorBase(const KernelSpec& spec)
      : spec_(spec), isa_(isa_of(spec)), precision_(precision_of(spec)) {
    traits(isa_);
  }

  virtual void generate() = 0;
  virtual void make_executable() = 0;

  Isa isa() const { return isa_; }
  int vector_bytes() const { return traits(isa_).vector_bytes; }
  int register_count() const { return traits(isa_).register_count; }
  int lanes() const { return vector_bytes() / (precision_ == Precision::dp ? 8 : 4); }

  // Metadata counts only what is emitted between begin_body() and end_body().
  void begin_body() { counting_ = true; }
  void end_body() { counting_ = false; }

  const KernelSpec spec_;
  const Isa isa_;
  const Precision precision_;  // of the FP instructions
  KernelMetadata metadata_;    // updated by the emit helpers
  bool counting_ = false;

 private:
  bool built_ = false;
};

}  // namespace larm::codegen
