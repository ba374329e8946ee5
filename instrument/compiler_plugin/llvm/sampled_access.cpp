// The LLVM plugin's sampled cache model (sampled_access.h). Run after LICM has promoted the
// counts to registers: the checks are on the loads and stores the machine code will do, and the
// runtime's call, declared to touch only its own memory and the function's level counts, keeps
// nothing of the program's in memory.
#include "instrument/compiler_plugin/llvm/sampled_access.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <vector>

#include "instrument/compiler_plugin/compiler_counts.h"

using namespace llvm;

namespace larm_llvm {
namespace {

struct Access {
  Instruction* inst;
  Value* pointer;
  uint64_t bytes;
  bool store;
  MemIntrinsic* range;  // a memset, memcpy or memmove (its ranges at run time), or none
};

// A load or store of a size known when built (a scalable vector's is not; nor are the masked and
// gather intrinsics', as in the GCC plugin), not of the plugin's own counts: filled in *access.
bool sampled_access(Instruction& inst, Access* access) {
  Value* pointer = nullptr;
  Type* type = nullptr;
  bool store = false;
  if (auto* load = dyn_cast<LoadInst>(&inst)) {
    pointer = load->getPointerOperand();
    type = load->getType();
  } else if (auto* write = dyn_cast<StoreInst>(&inst)) {
    pointer = write->getPointerOperand();
    type = write->getValueOperand()->getType();
    store = true;
  } else {
    return false;
  }
  const TypeSize size = inst.getModule()->getDataLayout().getTypeStoreSize(type);
  if (size.isScalable() || size.getFixedSize() == 0) return false;
  const Value* base = getUnderlyingObject(pointer);
  if (base != nullptr && base->hasName() && base->getName().startswith("__larm_")) return false;
  *access = {&inst, pointer, size.getFixedSize(), store, nullptr};
  return true;
}

std::vector<Access> accesses_of(Function& function) {
  std::vector<Access> accesses;
  for (BasicBlock& block : function) {
    for (Instruction& inst : block) {
      Access access{};
      if (auto* range = dyn_cast<MemIntrinsic>(&inst)) {
        accesses.push_back({&inst, nullptr, 0, true, range});
      } else if (sampled_access(inst, &access)) {
        accesses.push_back(access);
      }
    }
  }
  return accesses;
}

// void NAME(integers..., levels), a weak reference of the runtime, `integers` 64-bit integers
// before the function's level counts. Addresses go as integers: the call reads nothing of the
// program through them, and touches only its own memory and the level counts.
FunctionCallee runtime_function(Module& module, const char* name, unsigned integers) {
  LLVMContext& context = module.getContext();
  std::vector<Type*> parameters(integers, Type::getInt64Ty(context));
  parameters.push_back(Type::getInt64PtrTy(context));
  auto* type = FunctionType::get(Type::getVoidTy(context), parameters, false);
  Function* callee = module.getFunction(name);
  if (callee == nullptr) {
    callee = Function::Create(type, GlobalValue::ExternalWeakLinkage, name, module);
    callee->setDoesNotThrow();
    callee->addFnAttr(Attribute::WillReturn);
    callee->setOnlyAccessesInaccessibleMemOrArgMem();
    callee->addParamAttr(integers, Attribute::NoCapture);
  }
  if (callee->getFunctionType() == type) return FunctionCallee(type, callee);
  return FunctionCallee(type, ConstantExpr::getBitCast(callee, type->getPointerTo()));
}

// LARM_CACHE_ACCESS(address, bytes | store << 63, levels).
FunctionCallee cache_access(Module& module) {
  return runtime_function(module, LARM_CACHE_ACCESS, 2);
}

// LARM_CACHE_BYTES(destination, source or 0, bytes, levels).
FunctionCallee cache_bytes(Module& module) {
  return runtime_function(module, LARM_CACHE_BYTES, 3);
}

// Before a memset, memcpy or memmove: [if (runtime)] LARM_CACHE_BYTES(its ranges).
void insert_range(const Access& access, Value* levels, bool test_runtime) {
  Module& module = *access.inst->getModule();
  FunctionCallee callee = cache_bytes(module);
  IRBuilder<> builder(access.inst);
  Instruction* at = access.inst;
  if (test_runtime) {
    Value* there = builder.CreateIsNotNull(callee.getCallee(), "larm_runtime");
    MDNode* weights = MDBuilder(builder.getContext()).createBranchWeights(1, 1000);
    at = SplitBlockAndInsertIfThen(there, access.inst, false, weights);
  }
  IRBuilder<> call(at);
  Type* i64 = call.getInt64Ty();
  MemIntrinsic* range = access.range;
  Value* source = call.getInt64(0);
  if (auto* transfer = dyn_cast<MemTransferInst>(range))
    source = call.CreatePtrToInt(transfer->getRawSource(), i64);
  call.CreateCall(callee, {call.CreatePtrToInt(range->getRawDest(), i64), source,
                           call.CreateZExtOrTrunc(range->getLength(), i64), levels});
}

// Before the access: if (sampled [&& runtime]) LARM_CACHE_ACCESS(...), the call in a block of its
// own, taken for one line in 2^bits.
void insert_check(const Access& access, unsigned int bits, FunctionCallee callee, Value* levels,
                  bool test_runtime) {
  IRBuilder<> builder(access.inst);
  Value* address = builder.CreatePtrToInt(access.pointer, builder.getInt64Ty(), "larm_address");
  Value* line = builder.CreateLShr(address, LARM_CACHE_SAMPLE_LINE_SHIFT, "larm_line");
  Value* hash = builder.CreateMul(builder.CreateLShr(line, bits, "larm_block"),
                                  builder.getInt64(LARM_CACHE_SAMPLE_MULTIPLIER), "larm_hash");
  Value* offset = builder.CreateLShr(hash, 64 - bits, "larm_offset");
  Value* low = builder.CreateAnd(line, builder.getInt64((1ULL << bits) - 1), "larm_low");
  Value* take = builder.CreateICmpEQ(offset, low, "larm_sampled");
  if (test_runtime) take = builder.CreateAnd(take, builder.CreateIsNotNull(callee.getCallee()));
  MDNode* weights = MDBuilder(builder.getContext())
                        .createBranchWeights(1, static_cast<uint32_t>((1ULL << bits) - 1));
  Instruction* then = SplitBlockAndInsertIfThen(take, access.inst, false, weights);
  IRBuilder<> call(then);
  call.CreateCall(callee,
                  {address, call.getInt64(access.bytes | (access.store ? 1ULL << 63 : 0)), levels});
}

// Whether a copy of the function can be called in its place with its own arguments.
bool copy_callable(const Function& function) {
  if (function.isVarArg() || function.hasFnAttribute(Attribute::Naked)) return false;
  for (const Argument& argument : function.args()) {
    if (argument.hasInAllocaAttr() || argument.hasPreallocatedAttr() ||
        argument.hasSwiftErrorAttr())
      return false;
  }
  for (const BasicBlock& block : function) {
    if (block.hasAddressTaken()) return false;  // a computed goto's labels are the function's
  }
  return true;
}

// The function's entry, after its allocas (which stay static there): if (runtime) return
// copy(arguments).
void call_copy_where_runtime(Function& function, Function& copy, FunctionCallee callee) {
  Instruction* at = &*function.getEntryBlock().getFirstInsertionPt();
  while (isa<AllocaInst>(at) || isa<DbgInfoIntrinsic>(at)) at = at->getNextNode();
  IRBuilder<> builder(at);
  Value* there = builder.CreateIsNotNull(callee.getCallee(), "larm_runtime");
  MDNode* weights = MDBuilder(function.getContext()).createBranchWeights(1, 1000);
  Instruction* unreachable = SplitBlockAndInsertIfThen(there, at, true, weights);
  IRBuilder<> then(unreachable);
  std::vector<Value*> arguments;
  for (Argument& argument : function.args()) arguments.push_back(&argument);
  CallInst* call = then.CreateCall(copy.getFunctionType(), &copy, arguments);
  call->setCallingConv(copy.getCallingConv());
  call->setTailCallKind(CallInst::TCK_Tail);
  // The arguments' and the result's attributes (byval, sret, zeroext...) as the callee has them.
  const AttributeList attributes = function.getAttributes();
  std::vector<AttributeSet> parameters;
  for (unsigned k = 0; k < function.arg_size(); ++k)
    parameters.push_back(attributes.getParamAttrs(k));
  call->setAttributes(AttributeList::get(function.getContext(), AttributeSet(),
                                         attributes.getRetAttrs(), parameters));
  if (DISubprogram* subprogram = function.getSubprogram()) {
    call->setDebugLoc(DILocation::get(function.getContext(), subprogram->getLine(), 0, subprogram));
  }
  if (function.getReturnType()->isVoidTy()) {
    then.CreateRetVoid();
  } else {
    then.CreateRet(call);
  }
  unreachable->eraseFromParent();
}

}  // namespace

bool has_sampled_access(Function& function) {
  return !accesses_of(function).empty();
}

void insert_sampled_accesses(Function& function, unsigned int bits, GlobalVariable* levels) {
  Module& module = *function.getParent();
  const FunctionCallee callee = cache_access(module);
  IRBuilder<> constants(module.getContext());
  Value* first_level = constants.CreateConstInBoundsGEP2_32(levels->getValueType(), levels, 0, 0);
  // Each access's check, or a range's call; `test_runtime` where the function itself holds them.
  const auto instrument = [&](Function& f, bool test_runtime) {
    for (const Access& access : accesses_of(f)) {
      if (access.range != nullptr) {
        insert_range(access, first_level, test_runtime);
      } else {
        insert_check(access, bits, callee, first_level, test_runtime);
      }
    }
  };
  if (!copy_callable(function)) {
    instrument(function, true);
    return;
  }
  ValueToValueMapTy map;
  Function* copy = CloneFunction(&function, map);
  copy->setName(function.getName() + ".larm_sampled");
  copy->setLinkage(GlobalValue::InternalLinkage);
  copy->setVisibility(GlobalValue::DefaultVisibility);
  copy->setDLLStorageClass(GlobalValue::DefaultStorageClass);
  copy->setComdat(nullptr);
  instrument(*copy, false);
  call_copy_where_runtime(function, *copy, callee);
}

}  // namespace larm_llvm
