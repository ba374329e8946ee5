// The min and max selects of a block (min_max_select.h).
#include "instrument/compiler_plugin/gcc/min_max_select.h"

namespace larm_gcc {
#ifdef TARGET_SSE_MATH
namespace {

// Whether a block holds nothing but labels and debug statements.
bool empty_block(basic_block bb) {
  return gsi_end_p(gsi_start_nondebug_after_labels_bb(bb));
}

// The block whose condition decides which of the PHI's two edges is taken: the same block behind
// both (directly, or through an empty block of a single predecessor); null when there is none.
basic_block deciding_block(basic_block join) {
  basic_block deciding = nullptr;
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE(e, ei, join->preds) {
    basic_block from = e->src;
    if (from != nullptr && from != join && single_pred_p(from) && single_succ_p(from) &&
        empty_block(from))
      from = single_pred(from);
    if (deciding != nullptr && deciding != from) return nullptr;
    deciding = from;
  }
  return deciding;
}

bool selects_compared(gphi* phi) {
  if (gimple_phi_num_args(phi) != 2) return false;
  tree result = gimple_phi_result(phi);
  if (virtual_operand_p(result) || !SCALAR_FLOAT_TYPE_P(TREE_TYPE(result))) return false;
  const machine_mode mode = TYPE_MODE(TREE_TYPE(result));
  if (mode != DFmode && mode != SFmode) return false;
  basic_block deciding = deciding_block(gimple_bb(phi));
  if (deciding == nullptr) return false;
  gcond* cond = safe_dyn_cast<gcond*>(last_stmt(deciding));
  if (cond == nullptr) return false;
  switch (gimple_cond_code(cond)) {
    case LT_EXPR:
    case LE_EXPR:
    case GT_EXPR:
    case GE_EXPR:
      break;
    default:
      return false;
  }
  tree left = gimple_cond_lhs(cond), right = gimple_cond_rhs(cond);
  tree first = gimple_phi_arg_def(phi, 0), second = gimple_phi_arg_def(phi, 1);
  return (operand_equal_p(first, left, 0) && operand_equal_p(second, right, 0)) ||
         (operand_equal_p(first, right, 0) && operand_equal_p(second, left, 0));
}

}  // namespace
#endif

std::array<unsigned, 2> min_max_selects(basic_block bb) {
  std::array<unsigned, 2> selects = {0, 0};
#ifdef TARGET_SSE_MATH
  if (!TARGET_SSE_MATH) return selects;
  for (gphi_iterator gsi = gsi_start_phis(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
    gphi* phi = gsi.phi();
    if (!selects_compared(phi)) continue;
    ++selects[TYPE_MODE(TREE_TYPE(gimple_phi_result(phi))) == DFmode ? 0 : 1];
  }
#else
  (void)bb;  // another target: its selects are no FLOPs (AArch64's fcsel)
#endif
  return selects;
}

}  // namespace larm_gcc
