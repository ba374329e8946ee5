// larm's LLVM pass plugin (clang -fpass-plugin=): the GCC plugin's counts for code clang builds,
// into the same thread-local counts and with the same marks (compiler_counts.h), so that liblarm
// and `larm count` read both alike, and a program may mix objects of the two.
//
// Where: at the optimizer's last extension point, after vectorization; FMAs are the IR's
// llvm.fma and llvm.fmuladd (clang's contraction of a * b + c within a statement), and a multiply
// feeding an add where both carry fast-math's `contract` (-ffast-math, -ffp-contract=fast: the
// back end fuses them). Scalable vectors (SVE, RVV) count their lanes at run time
// (vscale). Each block is cut at every call, as in the GCC plugin; LICM then runs over the
// function so that a loop's counts are promoted to registers (the counts' accesses carry a TBAA
// type of their own, so that the program's stores of other types cannot alias them).
//
// Option (the plugin loaded with -fplugin= as well, so that clang knows it when it reads -mllvm;
// larm-clang does both): -mllvm -larm-cache-sample=N, the sampled cache model (compiler_counts.h,
// sampled_access.cpp), one line in N, a power of two from 2 to 65536.
#include <llvm/ADT/Triple.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/PassPlugin.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Scalar/LICM.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "instrument/compiler_plugin/compiler_counts.h"
#include "instrument/compiler_plugin/llvm/sampled_access.h"

using namespace llvm;

namespace {

using FlopKind = larm_flop_kind;

cl::opt<unsigned> cache_sample(
    "larm-cache-sample",
    cl::desc("larm's sampled cache model: one line in N (a power of two from 2 to 65536) is "
             "modelled by the runtime larm count and larm profile preload"),
    cl::init(0));

// log2 of the option's N; 0 without the model, -1 for an N that is not one.
int cache_sample_bits() {
  const unsigned n = cache_sample;
  if (n == 0) return 0;
  if (n < 2 || n > 65536 || (n & (n - 1)) != 0) return -1;
  return __builtin_ctz(n);
}

// The function's level counts, which the sampled model's runtime adds to (larm profile's).
std::string levels_name(const Function& function) {
  return ("__larm_function_levels." + function.getName()).str();
}

// What a function counts of its own, for larm profile (compiler_counts.h): each piece of constant
// counts adds 1 to its count of runs, and a table says what each piece counts; run-time amounts go
// to the function's direct counts.
struct OwnCounts {
  GlobalVariable* direct = nullptr;
  GlobalVariable* runs = nullptr;
  GlobalVariable* levels = nullptr;  // the sampled cache model's, or none
  std::vector<Instruction*> piece_starts;
  std::vector<uint64_t> table;  // pairs: piece << 8 | count index, amount
};

// Where the counts go: the thread's array and its TBAA tag, and the function's own.
struct Target {
  GlobalVariable* counts;
  MDNode* tbaa;
  Function* function;
  OwnCounts* own;
};

// A thread-local array of n counts, local to the object, initial-exec.
GlobalVariable* thread_local_array(Module& module, const Twine& name, uint64_t n) {
  auto* type = ArrayType::get(Type::getInt64Ty(module.getContext()), n);
  return new GlobalVariable(module, type, false, GlobalValue::InternalLinkage,
                            ConstantAggregateZero::get(type), name, nullptr,
                            GlobalValue::InitialExecTLSModel);
}

// counts[index] += amount where the builder stands; the accesses carry the TBAA tag (null: none).
void add_to(IRBuilder<>& builder, GlobalVariable* counts, MDNode* tbaa, uint64_t index,
            Value* amount) {
  Value* slot = builder.CreateConstInBoundsGEP2_32(counts->getValueType(), counts, 0,
                                                   static_cast<unsigned>(index));
  LoadInst* before = builder.CreateLoad(builder.getInt64Ty(), slot);
  StoreInst* after = builder.CreateStore(builder.CreateAdd(before, amount), slot);
  if (tbaa != nullptr) {
    before->setMetadata(LLVMContext::MD_tbaa, tbaa);
    after->setMetadata(LLVMContext::MD_tbaa, tbaa);
  }
}

// An amount known at run time, where the builder stands: to the thread's counts and the
// function's direct ones.
void add_to_count(IRBuilder<>& builder, const Target& target, int index, Value* amount) {
  OwnCounts& own = *target.own;
  if (own.direct == nullptr) {
    own.direct =
        thread_local_array(*target.function->getParent(),
                           "__larm_function_counts." + target.function->getName(), LARM_COUNT_N);
  }
  add_to(builder, target.counts, target.tbaa, index, amount);
  add_to(builder, own.direct, target.tbaa, index, amount);
}

// What one instruction counts. Constant counts go to the piece, added at its start; an amount
// known at run time only (a scalable vector's lanes, a memcpy's length) is added right before the
// instruction, where its value is defined: still before the call that ends the piece.
class Counter {
 public:
  Counter(Module& module, std::array<uint64_t, LARM_COUNT_N>& piece, const Target& target,
          Instruction* at)
      : data_(module.getDataLayout()), piece_(piece), target_(target), builder_(at) {}

  bool added() const { return added_; }

  void flops(Type* type, FlopKind kind) {
    if (kind == LARM_FLOP_NONE) return;
    Type* element = type->getScalarType();
    if (!element->isDoubleTy() && !element->isFloatTy()) return;
    const bool dp = element->isDoubleTy();
    const uint64_t per_lane = kind == LARM_FLOP_FMA ? 2 : 1;
    if (auto* scalable = dyn_cast<ScalableVectorType>(type)) {
      // Lanes at run time: vscale x the minimum; counted in the 512-bit width where the vector
      // length is not known at build time (SVE's 128 to 2048 bits).
      Value* lanes =
          builder_.CreateMul(builder_.CreateVScale(builder_.getInt64(1)),
                             builder_.getInt64(scalable->getMinNumElements() * per_lane));
      add(dp ? LARM_COUNT_DP_512 : LARM_COUNT_SP_512, lanes);
      add(larm_count_kind_index(kind), lanes);
      return;
    }
    const unsigned lanes =
        isa<FixedVectorType>(type) ? cast<FixedVectorType>(type)->getNumElements() : 1;
    piece_[larm_count_width_index(dp, lanes)] += lanes * per_lane;
    piece_[larm_count_kind_index(kind)] += lanes * per_lane;
  }

  // A reduction of `vector` into a scalar of `result`'s type: one scalar operation per lane
  // (ordered or not), the lanes at run time for a scalable vector.
  // `reassociated`: the reduction may be reordered (fast-math): the machine code halves the
  // vector, one operation on N/2 lanes, N/4, ..., 1, each at least 128 bits wide but the last,
  // scalar, as LLVM's x86 code does, and the start value adds one scalar operation unless it is
  // the identity; else one scalar operation per lane, in order.
  void reduction(Type* result, Type* vector, FlopKind kind, bool reassociated,
                 bool identity_start) {
    if (!result->isDoubleTy() && !result->isFloatTy()) return;
    const bool dp = result->isDoubleTy();
    const int width = larm_count_width_index(dp, 1);
    const int kind_index = larm_count_kind_index(kind);
    if (auto* scalable = dyn_cast<ScalableVectorType>(vector)) {
      Value* lanes = builder_.CreateMul(builder_.CreateVScale(builder_.getInt64(1)),
                                        builder_.getInt64(scalable->getMinNumElements()));
      add(width, lanes);
      add(kind_index, lanes);
    } else if (auto* fixed = dyn_cast<FixedVectorType>(vector)) {
      if (!reassociated) {
        piece_[width] += fixed->getNumElements();
        piece_[kind_index] += fixed->getNumElements();
        return;
      }
      // LLVM's x86 code ends on a scalar add (GCC's on a packed one).
      const uint64_t narrowest = dp ? 2 : 4;  // lanes of a 128-bit vector
      for (uint64_t half = fixed->getNumElements() / 2; half >= 1; half /= 2) {
        const uint64_t lanes = half == 1 ? 1 : std::max(half, narrowest);
        piece_[larm_count_width_index(dp, lanes)] += lanes;
        piece_[kind_index] += lanes;
      }
      if (!identity_start) {
        piece_[width] += 1;
        piece_[kind_index] += 1;
      }
    }
  }

  void access(Type* type, bool store) {
    const TypeSize size = data_.getTypeStoreSize(type);
    const int bytes_index = store ? LARM_COUNT_BYTES_STORED : LARM_COUNT_BYTES_LOADED;
    piece_[store ? LARM_COUNT_STORES : LARM_COUNT_LOADS] += 1;
    if (size.isScalable()) {
      add(bytes_index, builder_.CreateMul(builder_.CreateVScale(builder_.getInt64(1)),
                                          builder_.getInt64(size.getKnownMinSize())));
    } else {
      piece_[bytes_index] += size.getFixedSize();
    }
  }

  void length(Value* bytes, bool loaded) {
    Value* amount = builder_.CreateZExtOrTrunc(bytes, builder_.getInt64Ty());
    if (loaded) add(LARM_COUNT_BYTES_LOADED, amount);
    add(LARM_COUNT_BYTES_STORED, amount);
  }

 private:
  void add(int index, Value* amount) {
    add_to_count(builder_, target_, index, amount);
    added_ = true;
  }

  const DataLayout& data_;
  std::array<uint64_t, LARM_COUNT_N>& piece_;
  const Target& target_;
  IRBuilder<> builder_;
  bool added_ = false;
};

FlopKind intrinsic_kind(Intrinsic::ID id) {
  switch (id) {
    case Intrinsic::fma:
    case Intrinsic::fmuladd:
      return LARM_FLOP_FMA;
    case Intrinsic::sqrt:
      return LARM_FLOP_DIV;
    case Intrinsic::minnum:
    case Intrinsic::maxnum:
    case Intrinsic::minimum:
    case Intrinsic::maximum:
      return LARM_FLOP_ADD;
    default:
      return LARM_FLOP_NONE;
  }
}

// What the function's target makes of the IR's operations, where it decides what a FLOP is.
struct TargetRules {
  // llvm.fmuladd is an FMA where the target fuses a multiply and an add, a multiply and an add
  // elsewhere (x86 without FMA: SSE2, AVX).
  bool fuses = true;
  // x86's back end makes a select of one of a compare's two operands a minsd or maxsd (a FLOP to
  // the Valgrind tool and FP_ARITH counters); AArch64's makes it an fcsel (none).
  bool min_max_selects = false;
};

TargetRules target_rules(const Function& function) {
  const Triple triple(function.getParent()->getTargetTriple());
  TargetRules rules;
  if (!triple.isX86()) return rules;  // AArch64, RISC-V, POWER: the base ISA has FMAs
  rules.min_max_selects = true;
  rules.fuses = false;
  const std::string features = function.getFnAttribute("target-features").getValueAsString().str();
  for (const char* feature : {"+fma,", "+fma4,", "+avx512f,"}) {
    if ((features + ",").find(feature) != std::string::npos) rules.fuses = true;
  }
  return rules;
}

// Whether `condition` is an ordered compare of a and b (<, <=, >, >=, ordered or not).
bool orders(const Value* condition, const Value* a, const Value* b) {
  const auto* compare = dyn_cast<FCmpInst>(condition);
  if (compare == nullptr || a == b) return false;
  switch (compare->getPredicate()) {
    case CmpInst::FCMP_OLT:
    case CmpInst::FCMP_OLE:
    case CmpInst::FCMP_OGT:
    case CmpInst::FCMP_OGE:
    case CmpInst::FCMP_ULT:
    case CmpInst::FCMP_ULE:
    case CmpInst::FCMP_UGT:
    case CmpInst::FCMP_UGE:
      break;
    default:
      return false;
  }
  const Value* x = compare->getOperand(0);
  const Value* y = compare->getOperand(1);
  return (x == a && y == b) || (x == b && y == a);
}

// A select of a floating-point compare's two operands, ordered by it (a < b ? a : b and the
// like), what x86's back end makes a min or a max; also where the compare is one side of an and
// (x != 0 && x < m ? x : m: the min, then a blend with the other side's mask), where that and
// decides this select alone (deciding several, it stays a branch in the machine code).
bool min_max_select(const SelectInst& select) {
  const Value* t = select.getTrueValue();
  const Value* f = select.getFalseValue();
  const Value* condition = select.getCondition();
  if (orders(condition, t, f)) return true;
  const auto* both = dyn_cast<Instruction>(condition);
  if (both == nullptr) return false;
  const bool logical_and = both->getOpcode() == Instruction::And ||
                           (isa<SelectInst>(both) && isa<ConstantInt>(both->getOperand(2)) &&
                            cast<ConstantInt>(both->getOperand(2))->isZero());
  if (!logical_and || !both->hasOneUse()) return false;
  const Value* left = both->getOperand(0);
  const Value* right = both->getOperand(1);
  return orders(left, t, f) || orders(right, t, f);
}

// A multiply the back end may fuse into the add it feeds: both may be contracted (fast-math's
// `contract`), the multiply's one use is that add or subtract, on a target that fuses.
bool fusable_multiply(const Value* value, bool fused) {
  const auto* mul = dyn_cast<Instruction>(value);
  if (!fused || mul == nullptr || mul->getOpcode() != Instruction::FMul ||
      !mul->hasAllowContract() || !mul->hasOneUse())
    return false;
  const auto* user = dyn_cast<Instruction>(*mul->user_begin());
  return user != nullptr &&
         (user->getOpcode() == Instruction::FAdd || user->getOpcode() == Instruction::FSub) &&
         user->hasAllowContract();
}

// A multiply the back end fuses into the add it feeds, which is then an FMA, counted at the add.
// An add takes one multiply: its first operand where both are products (as the DAG combiner
// folds (fadd (fmul a, b), (fmul c, d)) into (fma a, b, (fmul c, d))); the other stays a multiply.
bool fused_multiply(const Instruction& mul, bool fused) {
  if (!fusable_multiply(&mul, fused)) return false;
  const auto* add = cast<Instruction>(*mul.user_begin());
  return add->getOperand(0) == &mul || !fusable_multiply(add->getOperand(0), fused);
}

// The add of a fused pair: one of its operands a multiply fused into it.
bool fused_add(const Instruction& add, bool fused) {
  for (const Value* operand : add.operands()) {
    const auto* mul = dyn_cast<Instruction>(operand);
    if (mul != nullptr && fused_multiply(*mul, fused)) return true;
  }
  return false;
}

// Counts one instruction; true when it ends a piece (a call that is not an intrinsic).
bool count(Counter& counter, Instruction& inst, const TargetRules& rules) {
  const bool fused = rules.fuses;
  switch (inst.getOpcode()) {
    case Instruction::FAdd:
    case Instruction::FSub:
      counter.flops(inst.getType(), fused_add(inst, fused) ? LARM_FLOP_FMA : LARM_FLOP_ADD);
      return false;
    case Instruction::FMul:
      if (!fused_multiply(inst, fused)) counter.flops(inst.getType(), LARM_FLOP_MUL);
      return false;
    case Instruction::FDiv:
      counter.flops(inst.getType(), LARM_FLOP_DIV);
      return false;
    case Instruction::Select:
      if (rules.min_max_selects && min_max_select(cast<SelectInst>(inst)))
        counter.flops(inst.getType(), LARM_FLOP_ADD);
      return false;
    case Instruction::Load:
      counter.access(inst.getType(), false);
      return false;
    case Instruction::Store:
      counter.access(cast<StoreInst>(inst).getValueOperand()->getType(), true);
      return false;
    default:
      break;
  }
  auto* call = dyn_cast<CallBase>(&inst);
  if (call == nullptr) return false;
  auto* intrinsic = dyn_cast<IntrinsicInst>(call);
  if (intrinsic == nullptr) {
    // libm's sqrt, which errno keeps a call in the IR: the back end (PartiallyInlineLibCalls)
    // makes it the square root instruction, calling libm for a negative operand only. It reads
    // no counts: the piece goes on.
    if (const Function* callee = call->getCalledFunction();
        callee != nullptr && callee->isDeclaration() &&
        (callee->getName() == "sqrt" || callee->getName() == "sqrtf")) {
      counter.flops(call->getType(), LARM_FLOP_DIV);
      return false;
    }
    // A call ends the piece; inline assembly calls nothing larm reads.
    return !call->isInlineAsm();
  }
  switch (intrinsic->getIntrinsicID()) {
    case Intrinsic::masked_load:
    case Intrinsic::masked_gather:
    case Intrinsic::masked_expandload:
      counter.access(intrinsic->getType(), false);
      return false;
    case Intrinsic::masked_store:
    case Intrinsic::masked_scatter:
    case Intrinsic::masked_compressstore:
      counter.access(intrinsic->getArgOperand(0)->getType(), true);
      return false;
    case Intrinsic::memcpy:
    case Intrinsic::memmove:
      counter.length(intrinsic->getArgOperand(2), true);
      return false;
    case Intrinsic::memset:
      counter.length(intrinsic->getArgOperand(2), false);
      return false;
    case Intrinsic::vector_reduce_fadd:
    case Intrinsic::vector_reduce_fmul: {
      const bool add = intrinsic->getIntrinsicID() == Intrinsic::vector_reduce_fadd;
      // The start value: -0.0 is an add's identity, 1.0 a multiply's.
      const auto* start = dyn_cast<ConstantFP>(intrinsic->getArgOperand(0));
      const bool identity =
          start != nullptr &&
          (add ? start->isNegativeZeroValue() || (start->isZero() && intrinsic->hasNoSignedZeros())
               : start->isExactlyValue(1.0));
      counter.reduction(intrinsic->getType(), intrinsic->getArgOperand(1)->getType(),
                        add ? LARM_FLOP_ADD : LARM_FLOP_MUL, intrinsic->hasAllowReassoc(),
                        identity);
      return false;
    }
    case Intrinsic::fmuladd:
      if (!fused) {
        counter.flops(intrinsic->getType(), LARM_FLOP_MUL);
        counter.flops(intrinsic->getType(), LARM_FLOP_ADD);
        return false;
      }
      counter.flops(intrinsic->getType(), LARM_FLOP_FMA);
      return false;
    default:
      counter.flops(intrinsic->getType(), intrinsic_kind(intrinsic->getIntrinsicID()));
      return false;
  }
}

class CountPass : public PassInfoMixin<CountPass> {
 public:
  PreservedAnalyses run(Module& module, ModuleAnalysisManager& /*analyses*/) {
    const int bits = cache_sample_bits();
    if (bits < 0) {
      module.getContext().emitError("larm: -larm-cache-sample=" + std::to_string(cache_sample) +
                                    ": give a power of two from 2 to 65536 (one line in N)");
      return PreservedAnalyses::all();
    }
    GlobalVariable* counts = define_counts(module);
    if (counts == nullptr) return PreservedAnalyses::all();
    MDNode* tbaa = counts_tbaa(module);
    bool changed = false;
    std::vector<std::pair<Function*, OwnCounts>> functions;
    for (Function& function : module) {
      if (function.isDeclaration()) continue;
      OwnCounts own;
      const Target target{counts, tbaa, &function, &own};
      const TargetRules rules = target_rules(function);
      for (BasicBlock& block : function) changed |= instrument(module, block, target, rules);
      count_pieces(module, function, own, tbaa);
      if (bits > 0 && larm_llvm::has_sampled_access(function))
        own.levels = thread_local_array(module, levels_name(function), LARM_COUNT_N);
      if (own.direct != nullptr || own.runs != nullptr || own.levels != nullptr)
        functions.emplace_back(&function, own);
    }
    if (!changed) {
      // Nothing instrumented: no definitions, no line (as the GCC plugin).
      if (counts->use_empty()) counts->eraseFromParent();
      return PreservedAnalyses::all();
    }
    define_mark_and_line(module);
    register_functions(module, functions);
    return PreservedAnalyses::none();
  }

 private:
  // The counts' definition; a declaration of the same name in the unit (liblarm's own tests read
  // it) becomes the definition. Another type of that name: the unit is left alone.
  static GlobalVariable* define_counts(Module& module) {
    auto* type = ArrayType::get(Type::getInt64Ty(module.getContext()), LARM_COUNT_N);
    GlobalVariable* counts = module.getNamedGlobal(LARM_COMPILER_COUNTS);
    if (counts == nullptr) {
      counts = new GlobalVariable(module, type, false, GlobalValue::WeakAnyLinkage, nullptr,
                                  LARM_COMPILER_COUNTS, nullptr, GlobalValue::InitialExecTLSModel);
    } else if (counts->getValueType() != type || !counts->isDeclaration()) {
      errs() << "larm: " << module.getSourceFileName() << " declares " << LARM_COMPILER_COUNTS
             << " otherwise: not instrumented\n";
      return nullptr;
    }
    counts->setInitializer(ConstantAggregateZero::get(type));
    counts->setLinkage(GlobalValue::WeakAnyLinkage);
    counts->setThreadLocalMode(GlobalValue::InitialExecTLSModel);
    counts->setComdat(module.getOrInsertComdat(LARM_COMPILER_COUNTS));
    counts->setAlignment(Align(64));
    return counts;
  }

  // The TBAA root of the module's own accesses (clang's "Simple C/C++ TBAA" or "Simple C++
  // TBAA"), with a scalar type of larm's under it: accesses of other types do not alias it.
  static MDNode* counts_tbaa(Module& module) {
    MDNode* root = nullptr;
    for (Function& function : module) {
      for (Instruction& inst : instructions(function)) {
        MDNode* tag = inst.getMetadata(LLVMContext::MD_tbaa);
        if (tag == nullptr || tag->getNumOperands() < 1) continue;
        MDNode* node = dyn_cast<MDNode>(tag->getOperand(0));
        // Up the type's parents to the root (a node of one operand, its name).
        while (node != nullptr && node->getNumOperands() >= 2)
          node = dyn_cast<MDNode>(node->getOperand(1));
        if (node != nullptr) {
          root = node;
          break;
        }
      }
      if (root != nullptr) break;
    }
    if (root == nullptr) return nullptr;
    MDBuilder md(module.getContext());
    MDNode* type = md.createTBAAScalarTypeNode("larm counts", root);
    return md.createTBAAStructTagNode(type, type, 0);
  }

  // The block's pieces, each up to a call: run-time amounts where they are defined, then each
  // piece's constant counts at its start.
  static bool instrument(Module& module, BasicBlock& block, const Target& target,
                         const TargetRules& rules) {
    bool changed = false;
    Instruction* start = &*block.getFirstInsertionPt();
    std::array<uint64_t, LARM_COUNT_N> piece{};
    std::vector<std::pair<Instruction*, std::array<uint64_t, LARM_COUNT_N>>> pieces;
    // Collected first: the instructions added for run-time amounts are not walked.
    std::vector<Instruction*> instructions;
    for (Instruction& inst : block) {
      if (isa<PHINode>(inst) || inst.isEHPad()) continue;
      // An invoke ends its block: what follows it is in the next.
      if (inst.isTerminator()) break;
      instructions.push_back(&inst);
    }
    for (Instruction* inst : instructions) {
      Counter counter(module, piece, target, inst);
      const bool ends = count(counter, *inst, rules);
      changed |= counter.added();
      if (!ends) continue;
      pieces.emplace_back(start, piece);
      piece.fill(0);
      start = inst->getNextNode();
    }
    if (start != nullptr) pieces.emplace_back(start, piece);
    OwnCounts& own = *target.own;
    for (const auto& [at, counted] : pieces) {
      IRBuilder<> builder(at);
      const uint64_t piece = own.piece_starts.size();
      bool constant = false;
      for (int index = 0; index < LARM_COUNT_N; ++index) {
        if (counted[index] == 0) continue;
        add_to(builder, target.counts, target.tbaa, index, builder.getInt64(counted[index]));
        own.table.push_back(piece << 8 | static_cast<uint64_t>(index));
        own.table.push_back(counted[index]);
        constant = true;
      }
      if (constant) own.piece_starts.push_back(at);
      changed |= constant;
    }
    return changed;
  }

  // Each piece of constant counts adds 1 to its count of runs, where its counts are added.
  static void count_pieces(Module& module, Function& function, OwnCounts& own, MDNode* tbaa) {
    if (own.piece_starts.empty()) return;
    own.runs = thread_local_array(module, "__larm_piece_runs." + function.getName(),
                                  own.piece_starts.size());
    for (std::size_t k = 0; k < own.piece_starts.size(); ++k) {
      IRBuilder<> builder(own.piece_starts[k]);
      add_to(builder, own.runs, tbaa, k, builder.getInt64(1));
    }
  }

  // The module's constructor: for each function with counts of its own,
  //   if (&__larm_function_counts)
  //     __larm_function_counts(mark, "symbol", direct, piece_runs, pieces, table, table_pairs,
  //                            levels);
  // (levels: the sampled cache model's, null without it)
  // the reference weak, so that a program run without larm profile's library calls nothing.
  static void register_functions(Module& module,
                                 const std::vector<std::pair<Function*, OwnCounts>>& functions) {
    if (functions.empty()) return;
    LLVMContext& context = module.getContext();
    Type* i64 = Type::getInt64Ty(context);
    PointerType* counts_pointer = Type::getInt64PtrTy(context);
    auto* type =
        FunctionType::get(Type::getVoidTy(context),
                          {Type::getInt32Ty(context), Type::getInt8PtrTy(context), counts_pointer,
                           counts_pointer, i64, counts_pointer, i64, counts_pointer},
                          false);
    Function* callee = module.getFunction(LARM_COMPILER_FUNCTION_COUNTS);
    if (callee == nullptr) {
      callee = Function::Create(type, GlobalValue::ExternalWeakLinkage,
                                LARM_COMPILER_FUNCTION_COUNTS, module);
    }
    Function* constructor =
        Function::Create(FunctionType::get(Type::getVoidTy(context), false),
                         GlobalValue::InternalLinkage, "__larm_register_function_counts", module);
    BasicBlock* check = BasicBlock::Create(context, "check", constructor);
    BasicBlock* calls = BasicBlock::Create(context, "calls", constructor);
    BasicBlock* done = BasicBlock::Create(context, "done", constructor);
    IRBuilder<> builder(check);
    builder.CreateCondBr(builder.CreateIsNotNull(callee), calls, done);
    builder.SetInsertPoint(calls);
    const auto first = [&](GlobalVariable* array) -> Value* {
      if (array == nullptr) return ConstantPointerNull::get(counts_pointer);
      return builder.CreateConstInBoundsGEP2_32(array->getValueType(), array, 0, 0);
    };
    for (const auto& [function, own] : functions) {
      GlobalVariable* table = nullptr;
      if (!own.table.empty()) {
        Constant* values = ConstantDataArray::get(context, own.table);
        table = new GlobalVariable(module, values->getType(), true, GlobalValue::PrivateLinkage,
                                   values, "__larm_pieces." + function->getName());
      }
      builder.CreateCall(type, callee,
                         {builder.getInt32(LARM_COMPILER_MARK_VALUE),
                          builder.CreateGlobalStringPtr(function->getName()), first(own.direct),
                          first(own.runs), builder.getInt64(own.piece_starts.size()), first(table),
                          builder.getInt64(own.table.size() / 2), first(own.levels)});
    }
    builder.CreateBr(done);
    builder.SetInsertPoint(done);
    builder.CreateRetVoid();
    appendToGlobalCtors(module, constructor, 65535);
  }

  static void define_mark_and_line(Module& module) {
    auto* type = Type::getInt32Ty(module.getContext());
    // Weak, not link-once: nothing in the unit uses it, and a link-once definition without a use
    // is dropped.
    auto* mark =
        new GlobalVariable(module, type, true, GlobalValue::WeakAnyLinkage,
                           ConstantInt::get(type, LARM_COMPILER_MARK_VALUE), LARM_COMPILER_MARK);
    mark->setComdat(module.getOrInsertComdat(LARM_COMPILER_MARK));
    std::string source = module.getSourceFileName();
    const int bits = cache_sample_bits();
    const std::string sampling =
        bits > 0 ? LARM_CACHE_SAMPLE_TOKEN + std::to_string(1UL << bits) + " " : "";
    for (char& c : source) {
      if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20) c = '?';
    }
    module.appendModuleInlineAsm(std::string("\t.pushsection ") + LARM_COMPILER_SECTION +
                                 ",\"aR\",@progbits\n\t.ascii \"larm-llvm-plugin " +
                                 std::to_string(LARM_COMPILER_PLUGIN_VERSION) + " counts " +
                                 std::to_string(LARM_COUNT_N) + " clang " LLVM_VERSION_STRING " " +
                                 sampling + source + "\\n\"\n\t.popsection\n");
  }
};

// The sampled cache model's checks, on what is left after LICM, in each function that has its
// level counts (CountPass made them where the function has an access to sample).
class SampledAccessPass : public PassInfoMixin<SampledAccessPass> {
 public:
  PreservedAnalyses run(Module& module, ModuleAnalysisManager& /*analyses*/) {
    const int bits = cache_sample_bits();
    if (bits <= 0) return PreservedAnalyses::all();
    std::vector<std::pair<Function*, GlobalVariable*>> functions;
    for (Function& function : module) {
      if (function.isDeclaration()) continue;
      GlobalVariable* levels = module.getNamedGlobal(levels_name(function));
      if (levels != nullptr) functions.emplace_back(&function, levels);
    }
    for (const auto& [function, levels] : functions)
      larm_llvm::insert_sampled_accesses(*function, static_cast<unsigned>(bits), levels);
    return functions.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
  }
};

}  // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "larm", "1", [](PassBuilder& builder) {
            builder.registerOptimizerLastEPCallback(
                [](ModulePassManager& passes, OptimizationLevel level) {
                  passes.addPass(CountPass());
                  if (level != OptimizationLevel::O0) {
                    passes.addPass(createModuleToFunctionPassAdaptor(
                        createFunctionToLoopPassAdaptor(LICMPass(), /*UseMemorySSA=*/true)));
                  }
                  passes.addPass(SampledAccessPass());
                });
          }};
}
