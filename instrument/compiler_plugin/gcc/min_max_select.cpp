// The min and max selects of a block (min_max_select.h).
#include "instrument/compiler_plugin/gcc/min_max_select.h"

#include <algorithm>
#include <vector>

namespace larm_gcc {
#ifdef TARGET_SSE_MATH
namespace {

// Whether a branch's block is what RTL's if-conversion turns into conditional moves beside the
// min: a few assignments that touch no memory and call nothing (an index kept with the minimum,
// k = i), or nothing at all.
bool convertible_block(basic_block bb) {
  int statements = 0;
  for (gimple_stmt_iterator gsi = gsi_start_nondebug_after_labels_bb(bb); !gsi_end_p(gsi);
       gsi_next_nondebug(&gsi)) {
    gimple* stmt = gsi_stmt(gsi);
    if (!is_gimple_assign(stmt) || gimple_vuse(stmt) != NULL_TREE ||
        gimple_has_side_effects(stmt) || gimple_could_trap_p(stmt) || ++statements > 2)
      return false;
  }
  return true;
}

// The block an edge into a join comes from, looking through a convertible block of a single
// predecessor (the branch taken).
basic_block source_through_branch(edge e) {
  basic_block from = e->src;
  if (from != nullptr && from != e->dest && single_pred_p(from) && single_succ_p(from) &&
      convertible_block(from))
    from = single_pred(from);
  return from;
}

// Whether {c, d} is {a, b}.
bool same_pair(tree a, tree b, tree c, tree d) {
  return (operand_equal_p(a, c, 0) && operand_equal_p(b, d, 0)) ||
         (operand_equal_p(a, d, 0) && operand_equal_p(b, c, 0));
}

// Whether a comparison orders: <, <=, >, >=; with `unordered`, their unordered forms too (the
// vectorizer's compares).
bool ordering(tree_code code, bool unordered) {
  switch (code) {
    case LT_EXPR:
    case LE_EXPR:
    case GT_EXPR:
    case GE_EXPR:
      return true;
    case UNLT_EXPR:
    case UNLE_EXPR:
    case UNGT_EXPR:
    case UNGE_EXPR:
      return unordered;
    default:
      return false;
  }
}

// Whether the block's condition orders a and b (<, <=, >, >=).
bool orders(basic_block deciding, tree a, tree b) {
  gcond* cond = safe_dyn_cast<gcond*>(last_stmt(deciding));
  return cond != nullptr && ordering(gimple_cond_code(cond), false) &&
         same_pair(a, b, gimple_cond_lhs(cond), gimple_cond_rhs(cond));
}

// The block deciding a PHI of two values, a and b, two of whose edges (one with each) leave it and
// whose condition orders a and b: a < b ? a : b, or with more edges keeping one of them (x != 0 &&
// x < m ? x : m), what if-conversion makes a min or max; null for another PHI. The min executes
// as often as that block, not as the join (the guard stays a branch).
basic_block deciding_block(gphi* phi) {
  tree result = gimple_phi_result(phi);
  if (virtual_operand_p(result) || !SCALAR_FLOAT_TYPE_P(TREE_TYPE(result))) return nullptr;
  const machine_mode mode = TYPE_MODE(TREE_TYPE(result));
  if (mode != DFmode && mode != SFmode) return nullptr;
  const unsigned n = gimple_phi_num_args(phi);
  if (n < 2 || n > 4) return nullptr;
  tree values[2] = {gimple_phi_arg_def(phi, 0), NULL_TREE};
  for (unsigned i = 1; i < n; ++i) {  // two values, no more
    tree value = gimple_phi_arg_def(phi, i);
    if (operand_equal_p(value, values[0], 0)) continue;
    if (values[1] == NULL_TREE) {
      values[1] = value;
    } else if (!operand_equal_p(value, values[1], 0)) {
      return nullptr;
    }
  }
  for (unsigned i = 0; i < n; ++i) {
    for (unsigned j = i + 1; j < n; ++j) {
      tree a = gimple_phi_arg_def(phi, i), b = gimple_phi_arg_def(phi, j);
      if (operand_equal_p(a, b, 0)) continue;
      basic_block from = source_through_branch(gimple_phi_arg_edge(phi, i));
      if (from == nullptr || from != source_through_branch(gimple_phi_arg_edge(phi, j))) continue;
      if (orders(from, a, b)) return from;
    }
  }
  return nullptr;
}

// The blocks a decision of `bb` joins: its successors, and theirs through a convertible block.
std::vector<basic_block> joins(basic_block bb) {
  std::vector<basic_block> out;
  const auto add = [&](basic_block join) {
    if (std::find(out.begin(), out.end(), join) == out.end()) out.push_back(join);
  };
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE(e, ei, bb->succs) {
    basic_block to = e->dest;
    if (single_pred_p(to) && single_succ_p(to) && convertible_block(to)) to = single_succ(to);
    add(to);
  }
  return out;
}

}  // namespace
#endif

bool vector_min_max(const gcall* call) {
#ifdef TARGET_SSE_MATH
  if (!TARGET_SSE_MATH) return false;
  const internal_fn fn = gimple_call_internal_fn(call);
  if (fn == IFN_VCOND && gimple_call_num_args(call) == 5) {
    tree code = gimple_call_arg(call, 4);
    return tree_fits_shwi_p(code) && ordering(static_cast<tree_code>(tree_to_shwi(code)), true) &&
           same_pair(gimple_call_arg(call, 0), gimple_call_arg(call, 1), gimple_call_arg(call, 2),
                     gimple_call_arg(call, 3));
  }
  if (fn == IFN_VCOND_MASK && gimple_call_num_args(call) == 3) {
    tree mask = gimple_call_arg(call, 0);
    if (TREE_CODE(mask) != SSA_NAME) return false;
    const gassign* compare = dyn_cast<const gassign*>(SSA_NAME_DEF_STMT(mask));
    return compare != nullptr && ordering(gimple_assign_rhs_code(compare), true) &&
           same_pair(gimple_assign_rhs1(compare), gimple_assign_rhs2(compare),
                     gimple_call_arg(call, 1), gimple_call_arg(call, 2));
  }
#else
  (void)call;  // another target: a select is no FLOP (AArch64's bsl, fcsel)
#endif
  return false;
}

std::array<unsigned, 2> min_max_selects(basic_block bb) {
  std::array<unsigned, 2> selects = {0, 0};
#ifdef TARGET_SSE_MATH
  if (!TARGET_SSE_MATH || safe_dyn_cast<gcond*>(last_stmt(bb)) == nullptr) return selects;
  for (basic_block join : joins(bb)) {
    for (gphi_iterator gsi = gsi_start_phis(join); !gsi_end_p(gsi); gsi_next(&gsi)) {
      gphi* phi = gsi.phi();
      if (deciding_block(phi) != bb) continue;
      ++selects[TYPE_MODE(TREE_TYPE(gimple_phi_result(phi))) == DFmode ? 0 : 1];
    }
  }
#else
  (void)bb;    // another target: its selects are no FLOPs (AArch64's fcsel)
#endif
  return selects;
}

}  // namespace larm_gcc
