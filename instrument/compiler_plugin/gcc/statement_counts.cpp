// What a GIMPLE statement counts (statement_counts.h): its floating-point operations by precision,
// width and kind, and the bytes and number of its loads and stores.
#include "instrument/compiler_plugin/gcc/statement_counts.h"

#include "instrument/compiler_plugin/gcc/min_max_select.h"

#include <cstring>

namespace larm_gcc {
namespace {

// The floating-point type of a value: its precision (64 or 32 bits) and lanes (a multiple of the
// vector length for a scalable vector); 0 lanes when it is not a float or double scalar or vector.
struct FloatShape {
  int bits = 0;
  poly_uint64 lanes = 0;
  bool scalable = false;
};

FloatShape float_shape(tree type) {
  FloatShape shape;
  if (type == NULL_TREE) return shape;
  poly_uint64 lanes = 1;
  tree element = type;
  if (TREE_CODE(type) == VECTOR_TYPE) {
    lanes = TYPE_VECTOR_SUBPARTS(type);
    shape.scalable = !lanes.is_constant();
    element = TREE_TYPE(type);
  }
  if (!SCALAR_FLOAT_TYPE_P(element)) return shape;
  const machine_mode mode = TYPE_MODE(element);
  if (mode == DFmode) {
    shape.bits = 64;
  } else if (mode == SFmode) {
    shape.bits = 32;
  } else {
    return shape;  // half, x87 extended, quad: not counted (nor by the Valgrind tool's widths)
  }
  shape.lanes = lanes;
  return shape;
}

using FlopKind = larm_flop_kind;

void add_flops(Counts& counts, tree type, FlopKind kind) {
  const FloatShape shape = float_shape(type);
  if (kind == LARM_FLOP_NONE || known_eq(shape.lanes, 0U)) return;
  const poly_uint64 flops = shape.lanes * (kind == LARM_FLOP_FMA ? 2 : 1);
  // A scalable vector's width is known at run time only: its FLOPs go to the widest bucket.
  const unsigned long long lanes = shape.scalable ? ~0ULL : shape.lanes.to_constant();
  counts[larm_count_width_index(shape.bits == 64, lanes)] += flops;
  counts[larm_count_kind_index(kind)] += flops;
}

FlopKind assign_kind(tree_code code) {
  switch (code) {
    case PLUS_EXPR:
    case MINUS_EXPR:
    case MIN_EXPR:
    case MAX_EXPR:
      return LARM_FLOP_ADD;
    case MULT_EXPR:
      return LARM_FLOP_MUL;
    case RDIV_EXPR:
      return LARM_FLOP_DIV;
    default:
      return LARM_FLOP_NONE;
  }
}

// Internal functions: FMAs, square roots, min and max, and their conditional (masked) forms,
// counted at the vector's full width (the active lanes are not known when the block is counted).
FlopKind internal_kind(internal_fn fn) {
  switch (fn) {
    case IFN_FMA:
    case IFN_FMS:
    case IFN_FNMA:
    case IFN_FNMS:
    case IFN_COND_FMA:
    case IFN_COND_FMS:
    case IFN_COND_FNMA:
    case IFN_COND_FNMS:
      return LARM_FLOP_FMA;
    case IFN_SQRT:
    case IFN_COND_RDIV:
      return LARM_FLOP_DIV;
    case IFN_FMIN:
    case IFN_FMAX:
    case IFN_COND_ADD:
    case IFN_COND_SUB:
    case IFN_COND_MIN:
    case IFN_COND_MAX:
    case IFN_COND_FMIN:
    case IFN_COND_FMAX:
      return LARM_FLOP_ADD;
    case IFN_COND_MUL:
      return LARM_FLOP_MUL;
    default:
      return LARM_FLOP_NONE;
  }
}

// Calls GCC expands inline into one instruction: the square roots (the libm call stays only
// for errno on a negative argument).
FlopKind builtin_kind(const gcall* call) {
  if (!gimple_call_builtin_p(call, BUILT_IN_NORMAL)) return LARM_FLOP_NONE;
  switch (DECL_FUNCTION_CODE(gimple_call_fndecl(call))) {
    case BUILT_IN_SQRT:
    case BUILT_IN_SQRTF:
      return LARM_FLOP_DIV;
    case BUILT_IN_FMA:
    case BUILT_IN_FMAF:
      return LARM_FLOP_FMA;
    case BUILT_IN_FMIN:
    case BUILT_IN_FMINF:
    case BUILT_IN_FMAX:
    case BUILT_IN_FMAXF:
      return LARM_FLOP_ADD;
    default:
      return LARM_FLOP_NONE;
  }
}

// Bytes of a type: a constant, or a multiple of the vector length; 0 when variable otherwise.
poly_uint64 size_of(tree type) {
  if (type == NULL_TREE || TYPE_SIZE_UNIT(type) == NULL_TREE ||
      !poly_int_tree_p(TYPE_SIZE_UNIT(type))) {
    return 0;
  }
  return tree_to_poly_uint64(TYPE_SIZE_UNIT(type));
}

void add_load(Counts& counts, tree type) {
  const poly_uint64 bytes = size_of(type);
  if (known_eq(bytes, 0U)) return;
  counts[LARM_COUNT_BYTES_LOADED] += bytes;
  counts[LARM_COUNT_LOADS] += 1;
}

void add_store(Counts& counts, tree type) {
  const poly_uint64 bytes = size_of(type);
  if (known_eq(bytes, 0U)) return;
  counts[LARM_COUNT_BYTES_STORED] += bytes;
  counts[LARM_COUNT_STORES] += 1;
}

// A memory reference on the right of an assignment: what the pass counts as a load.
bool reads_memory(tree operand) {
  if (operand == NULL_TREE || TREE_CODE(operand) == SSA_NAME || is_gimple_min_invariant(operand))
    return false;
  tree base = get_base_address(operand);
  if (base == NULL_TREE) return false;
  if (TREE_CODE(base) == MEM_REF || TREE_CODE(base) == TARGET_MEM_REF) return true;
  return DECL_P(base) && !is_gimple_reg(operand);
}

// Targets' builtins that gather or scatter (x86's __builtin_ia32_gather*, scatter*): the
// vector's full width, as for the masked moves.
bool machine_builtin_named(const gcall* call, const char* part) {
  if (!gimple_call_builtin_p(call, BUILT_IN_MD)) return false;
  const char* name = IDENTIFIER_POINTER(DECL_NAME(gimple_call_fndecl(call)));
  return std::strstr(name, part) != nullptr;
}

void count_call(Counts& counts, const gcall* call) {
  tree lhs = gimple_call_lhs(call);
  if (gimple_call_internal_p(call)) {
    const internal_fn fn = gimple_call_internal_fn(call);
    switch (fn) {
      case IFN_MASK_LOAD:
      case IFN_LOAD_LANES:
      case IFN_MASK_LOAD_LANES:
      case IFN_GATHER_LOAD:
      case IFN_MASK_GATHER_LOAD:
      case IFN_LEN_LOAD:
        if (lhs != NULL_TREE) add_load(counts, TREE_TYPE(lhs));
        return;
      case IFN_MASK_STORE:
      case IFN_MASK_STORE_LANES:
      case IFN_LEN_STORE:
      case IFN_STORE_LANES:
      case IFN_SCATTER_STORE:
      case IFN_MASK_SCATTER_STORE: {
        // The value stored is the call's last argument but for the masked and scattered forms,
        // whose mask follows it: the widest vector argument is the one stored.
        tree widest = NULL_TREE;
        for (unsigned i = 0; i < gimple_call_num_args(call); ++i) {
          tree arg = gimple_call_arg(call, i);
          if (TREE_CODE(TREE_TYPE(arg)) == VECTOR_TYPE && !VECTOR_BOOLEAN_TYPE_P(TREE_TYPE(arg)) &&
              (widest == NULL_TREE ||
               maybe_gt(size_of(TREE_TYPE(arg)), size_of(TREE_TYPE(widest))))) {
            widest = arg;
          }
        }
        if (widest != NULL_TREE) add_store(counts, TREE_TYPE(widest));
        return;
      }
      case IFN_FOLD_LEFT_PLUS:
      case IFN_MASK_FOLD_LEFT_PLUS: {
        // An in-order reduction: one scalar add per lane of the vector argument (every lane,
        // masked or not).
        if (lhs == NULL_TREE) return;
        const FloatShape scalar = float_shape(TREE_TYPE(lhs));
        if (known_eq(scalar.lanes, 0U)) return;
        const poly_uint64 lanes = float_shape(TREE_TYPE(gimple_call_arg(call, 1))).lanes;
        counts[larm_count_width_index(scalar.bits == 64, 1)] += lanes;
        counts[LARM_COUNT_ADD_FLOPS] += lanes;
        return;
      }
      case IFN_REDUC_PLUS:
      case IFN_REDUC_FMAX:
      case IFN_REDUC_FMIN:
      case IFN_REDUC_MAX:
      case IFN_REDUC_MIN: {
        // A vector reduced to a scalar (a vectorized sum's or max's end): the machine code
        // halves the vector, one operation on N/2 lanes, then N/4, ..., 1, each at least 128
        // bits wide as x86's code does it (its last step a packed add of which one lane is
        // kept): what the Valgrind tool counts. A scalable vector's: lanes - 1, the widest width.
        if (lhs == NULL_TREE) return;
        const FloatShape vector = float_shape(TREE_TYPE(gimple_call_arg(call, 0)));
        if (known_eq(vector.lanes, 0U)) return;
        const bool dp = vector.bits == 64;
        if (vector.scalable) {
          counts[larm_count_width_index(dp, ~0ULL)] += vector.lanes - 1;
          counts[LARM_COUNT_ADD_FLOPS] += vector.lanes - 1;
          return;
        }
        const unsigned long long narrowest = dp ? 2 : 4;  // lanes of a 128-bit vector
        for (unsigned long long half = vector.lanes.to_constant() / 2; half >= 1; half /= 2) {
          const unsigned long long width = std::max(half, narrowest);
          counts[larm_count_width_index(dp, width)] += width;
          counts[LARM_COUNT_ADD_FLOPS] += width;
        }
        return;
      }
      case IFN_VCOND:
      case IFN_VCOND_MASK:
        if (lhs != NULL_TREE && vector_min_max(call))
          add_flops(counts, TREE_TYPE(lhs), LARM_FLOP_ADD);
        return;
      default:
        if (lhs != NULL_TREE) add_flops(counts, TREE_TYPE(lhs), internal_kind(fn));
        return;
    }
  }
  if (lhs != NULL_TREE) {
    if (machine_builtin_named(call, "gather")) {
      add_load(counts, TREE_TYPE(lhs));
      return;
    }
    add_flops(counts, TREE_TYPE(lhs), builtin_kind(call));
    // A call's result stored to memory (an aggregate returned): a store.
    if (!is_gimple_reg(lhs) && TREE_CODE(lhs) != SSA_NAME) add_store(counts, TREE_TYPE(lhs));
  }
  if (machine_builtin_named(call, "scatter")) {
    for (unsigned i = 0; i < gimple_call_num_args(call); ++i) {
      tree arg = gimple_call_arg(call, i);
      if (TREE_CODE(TREE_TYPE(arg)) == VECTOR_TYPE &&
          !known_eq(float_shape(TREE_TYPE(arg)).lanes, 0U)) {
        add_store(counts, TREE_TYPE(arg));
        break;
      }
    }
  }
}

void count_statement(Counts& counts, gimple* stmt) {
  if (is_gimple_debug(stmt) || gimple_clobber_p(stmt)) return;
  if (const gcall* call = dyn_cast<const gcall*>(stmt)) {
    count_call(counts, call);
    return;
  }
  const gassign* assign = dyn_cast<const gassign*>(stmt);
  if (assign == nullptr) return;
  tree lhs = gimple_assign_lhs(assign);
  if (gimple_assign_single_p(assign)) {
    tree rhs = gimple_assign_rhs1(assign);
    if (reads_memory(rhs)) add_load(counts, TREE_TYPE(rhs));
  }
  if (gimple_store_p(assign)) add_store(counts, TREE_TYPE(lhs));
  add_flops(counts, TREE_TYPE(lhs), assign_kind(gimple_assign_rhs_code(assign)));
}

}  // namespace

FlopKind statement_builtin_kind(const gcall* call) {
  return builtin_kind(call);
}

void statement_counts(Counts& counts, gimple* stmt) {
  count_statement(counts, stmt);
}

}  // namespace larm_gcc
