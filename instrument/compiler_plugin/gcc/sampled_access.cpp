// The sampled cache model's check and call before each access (sampled_access.h). The check is
// larm_cache_line_sampled on the address (shifts, a multiply, a mask and a compare), with the weak
// reference's test folded in: one branch, taken for one line in 2^bits; the call sits in a block
// of its own so that the common path runs straight on.
#include "instrument/compiler_plugin/gcc/sampled_access.h"

#include <algorithm>
#include <cstring>

#include "instrument/compiler_plugin/compiler_counts.h"

namespace larm_gcc {
namespace {

// A weak declaration of the runtime's function `name`, of `type`. It touches no memory the
// program's code reads or writes (its model, its own counts and the function's level counts,
// which no code of the function loads): the program's counts stay in registers across it, as
// without the model.
tree runtime_declaration(const char* name, tree type) {
  tree decl = build_decl(UNKNOWN_LOCATION, FUNCTION_DECL, get_identifier(name), type);
  TREE_PUBLIC(decl) = 1;
  DECL_EXTERNAL(decl) = 1;
  DECL_ARTIFICIAL(decl) = 1;
  DECL_IS_NOVOPS(decl) = 1;
  declare_weak(decl);
  return decl;
}

// LARM_CACHE_ACCESS(address, bytes | store << 63, levels).
tree cache_access_declaration() {
  static tree decl = runtime_declaration(
      LARM_CACHE_ACCESS,
      build_function_type_list(void_type_node, const_ptr_type_node, long_long_unsigned_type_node,
                               build_pointer_type(long_long_unsigned_type_node), NULL_TREE));
  return decl;
}

// LARM_CACHE_BYTES(destination, source or null, bytes, levels).
tree cache_bytes_declaration() {
  static tree decl = runtime_declaration(
      LARM_CACHE_BYTES,
      build_function_type_list(void_type_node, const_ptr_type_node, const_ptr_type_node,
                               long_long_unsigned_type_node,
                               build_pointer_type(long_long_unsigned_type_node), NULL_TREE));
  return decl;
}

// A call in a block of its own, taken when `condition` holds, before gsi's statement.
void call_when(gimple_stmt_iterator* gsi, tree condition, gcall* call) {
  gcond* check = gimple_build_cond(NE_EXPR, condition, build_int_cst(boolean_type_node, 0),
                                   NULL_TREE, NULL_TREE);
  gsi_insert_before(gsi, check, GSI_SAME_STMT);
  // bb: ..., the check | call_bb: the call | rest: the statement, and what follows it.
  basic_block bb = gimple_bb(check);
  edge straight = split_block(bb, check);
  basic_block rest = straight->dest;
  straight->flags = (straight->flags & ~EDGE_FALLTHRU) | EDGE_FALSE_VALUE;
  straight->probability = profile_probability::very_likely();
  basic_block call_bb = create_empty_bb(bb);
  edge taken = make_edge(bb, call_bb, EDGE_TRUE_VALUE);
  taken->probability = straight->probability.invert();
  call_bb->count = bb->count.apply_probability(taken->probability);
  make_single_succ_edge(call_bb, rest, EDGE_FALLTHRU);
  if (current_loops != nullptr) add_bb_to_loop(call_bb, bb->loop_father);
  gimple_stmt_iterator at = gsi_start_bb(call_bb);
  gsi_insert_after(&at, call, GSI_NEW_STMT);
}

// Whether the weak `callee` is defined (the runtime is loaded), as a boolean before gsi.
tree defined_before(gimple_stmt_iterator* gsi, tree callee) {
  tree there = make_temp_ssa_name(boolean_type_node, nullptr, "larm_runtime");
  gsi_insert_before(gsi,
                    gimple_build_assign(there, NE_EXPR, build_fold_addr_expr(callee),
                                        build_int_cst(build_pointer_type(TREE_TYPE(callee)), 0)),
                    GSI_SAME_STMT);
  return there;
}

// lhs = a code b, before gsi; returns lhs.
tree assign_before(gimple_stmt_iterator* gsi, tree type, tree_code code, tree a, tree b,
                   const char* name) {
  tree lhs = make_temp_ssa_name(type, nullptr, name);
  gsi_insert_before(gsi, gimple_build_assign(lhs, code, a, b), GSI_SAME_STMT);
  return lhs;
}

tree first_element(tree array) {
  return fold_convert(build_pointer_type(long_long_unsigned_type_node),
                      build_fold_addr_expr(array));
}

// Before a memset, memcpy, mempcpy or memmove: its ranges to the runtime.
void insert_range(gimple* stmt, tree levels) {
  gcall* copy = as_a<gcall*>(stmt);
  const bool set = gimple_call_builtin_p(copy, BUILT_IN_MEMSET);
  gimple_stmt_iterator gsi = gsi_for_stmt(stmt);
  tree callee = cache_bytes_declaration();
  tree there = defined_before(&gsi, callee);
  tree length = force_gimple_operand_gsi(
      &gsi, fold_convert(long_long_unsigned_type_node, gimple_call_arg(copy, 2)), true, NULL_TREE,
      true, GSI_SAME_STMT);
  tree source = set ? build_int_cst(const_ptr_type_node, 0) : gimple_call_arg(copy, 1);
  gcall* call =
      gimple_build_call(callee, 4, gimple_call_arg(copy, 0), source, length, first_element(levels));
  call_when(&gsi, there, call);
}

void insert_sampled_access(const SampledAccess& access, unsigned int bits, tree levels) {
  if (access.ref == NULL_TREE) {
    insert_range(access.stmt, levels);
    return;
  }
  tree word = long_long_unsigned_type_node;
  gimple_stmt_iterator gsi = gsi_for_stmt(access.stmt);
  tree reference = build_fold_addr_expr(unshare_expr(access.ref));
  if (access.offset != 0) reference = fold_build_pointer_plus_hwi(reference, access.offset);
  tree address = force_gimple_operand_gsi(&gsi, reference, true, NULL_TREE, true, GSI_SAME_STMT);
  tree value = make_temp_ssa_name(word, nullptr, "larm_address");
  gsi_insert_before(&gsi, gimple_build_assign(value, NOP_EXPR, address), GSI_SAME_STMT);
  tree line =
      assign_before(&gsi, word, RSHIFT_EXPR, value,
                    build_int_cst(integer_type_node, LARM_CACHE_SAMPLE_LINE_SHIFT), "larm_line");
  tree block = assign_before(&gsi, word, RSHIFT_EXPR, line, build_int_cst(integer_type_node, bits),
                             "larm_block");
  tree hashed = assign_before(&gsi, word, MULT_EXPR, block,
                              build_int_cst(word, LARM_CACHE_SAMPLE_MULTIPLIER), "larm_hash");
  tree offset = assign_before(&gsi, word, RSHIFT_EXPR, hashed,
                              build_int_cst(integer_type_node, 64 - bits), "larm_offset");
  tree low = assign_before(&gsi, word, BIT_AND_EXPR, line, build_int_cst(word, (1ULL << bits) - 1),
                           "larm_low");
  tree sampled = assign_before(&gsi, boolean_type_node, EQ_EXPR, offset, low, "larm_sampled");
  tree callee = cache_access_declaration();
  tree there = defined_before(&gsi, callee);
  tree both = assign_before(&gsi, boolean_type_node, BIT_AND_EXPR, sampled, there, "larm_call");
  const unsigned long long size_and_kind = access.bytes | (access.store ? 1ULL << 63 : 0ULL);
  gcall* call = gimple_build_call(callee, 3, address, build_int_cst(word, size_and_kind),
                                  first_element(levels));
  call_when(&gsi, both, call);
}

// Each outermost loop that holds an access is versioned on whether the runtime is there: its
// copy, taken without it (the timed runs), has no check at all; the checks go into the original,
// taken under larm count's counting run. The accesses outside loops keep their checks.
void version_loops(const std::vector<SampledAccess>& accesses) {
  // Loops with preheaders (what loop_version needs), made or brought to that state.
  loop_optimizer_init(LOOPS_NORMAL | LOOPS_HAVE_RECORDED_EXITS);
  calculate_dominance_info(CDI_DOMINATORS);
  std::vector<class loop*> outermost;
  for (const SampledAccess& access : accesses) {
    class loop* l = gimple_bb(access.stmt)->loop_father;
    if (l == nullptr || loop_outer(l) == nullptr) continue;  // in no loop
    while (loop_outer(loop_outer(l)) != nullptr) l = loop_outer(l);
    if (std::find(outermost.begin(), outermost.end(), l) == outermost.end()) outermost.push_back(l);
  }
  tree callee = cache_access_declaration();
  for (class loop* l : outermost) {
    if (!can_duplicate_loop_p(l)) continue;
    tree runtime = build2(NE_EXPR, boolean_type_node, build_fold_addr_expr(callee),
                          build_int_cst(build_pointer_type(TREE_TYPE(callee)), 0));
    initialize_original_copy_tables();
    loop_version(l, runtime, nullptr, profile_probability::unlikely(),
                 profile_probability::likely(), profile_probability::unlikely(),
                 profile_probability::likely(), true);
    free_original_copy_tables();
  }
  // The copies' names: the SSA form brought up to date before the checks go in.
  if (!outermost.empty()) update_ssa(TODO_update_ssa);
}

// Adds the access when it can be sampled.
void note_access(std::vector<SampledAccess>& accesses, gimple* stmt, tree ref, bool store) {
  unsigned long long offset = 0;
  unsigned long long bytes = 0;
  if (TREE_CODE(ref) == BIT_FIELD_REF) {
    // A lane of a vector in memory, loaded alone (the vectorizer's emulated gathers read their
    // indices so): the bytes at its position, when they are whole bytes.
    tree size = TREE_OPERAND(ref, 1);
    tree position = TREE_OPERAND(ref, 2);
    if (!tree_fits_uhwi_p(size) || !tree_fits_uhwi_p(position) ||
        tree_to_uhwi(size) % BITS_PER_UNIT != 0 || tree_to_uhwi(position) % BITS_PER_UNIT != 0)
      return;
    bytes = tree_to_uhwi(size) / BITS_PER_UNIT;
    offset = tree_to_uhwi(position) / BITS_PER_UNIT;
    ref = TREE_OPERAND(ref, 0);
    if (TREE_CODE(ref) == SSA_NAME || is_gimple_min_invariant(ref)) return;  // not memory
  } else {
    tree type = TREE_TYPE(ref);
    if (type == NULL_TREE || TYPE_SIZE_UNIT(type) == NULL_TREE ||
        !tree_fits_uhwi_p(TYPE_SIZE_UNIT(type)))
      return;  // a scalable vector (its bytes known at run time), or no size
    bytes = tree_to_uhwi(TYPE_SIZE_UNIT(type));
  }
  if (bytes == 0) return;
  // A bit-field has no address of its own; nor has what holds a bit-field lane.
  for (tree inner = ref; handled_component_p(inner); inner = TREE_OPERAND(inner, 0)) {
    if (TREE_CODE(inner) == BIT_FIELD_REF ||
        (TREE_CODE(inner) == COMPONENT_REF && DECL_BIT_FIELD(TREE_OPERAND(inner, 1))))
      return;
  }
  tree base = get_base_address(ref);
  if (base == NULL_TREE) return;
  if (DECL_P(base) && DECL_NAME(base) != NULL_TREE &&
      std::strncmp(IDENTIFIER_POINTER(DECL_NAME(base)), "__larm_", 7) == 0)
    return;  // the plugin's own counts
  if (DECL_P(base)) {
    // A local the compiler keeps out of memory where it can: taking its address would change
    // the code counted. A static variable's address is taken at no cost.
    if (!TREE_STATIC(base) && !DECL_EXTERNAL(base) && !TREE_ADDRESSABLE(base)) return;
    if (VAR_P(base) && DECL_HARD_REGISTER(base)) return;
    TREE_ADDRESSABLE(base) = 1;
  } else if (TREE_CODE(base) != MEM_REF && TREE_CODE(base) != TARGET_MEM_REF) {
    return;
  }
  accesses.push_back({stmt, ref, offset, bytes, store});
}

}  // namespace

std::vector<SampledAccess> program_accesses(function* fun) {
  std::vector<SampledAccess> accesses;
  basic_block bb;
  FOR_EACH_BB_FN(bb, fun) {
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
      gimple* stmt = gsi_stmt(gsi);
      if (gimple_call_builtin_p(stmt, BUILT_IN_MEMSET) ||
          gimple_call_builtin_p(stmt, BUILT_IN_MEMCPY) ||
          gimple_call_builtin_p(stmt, BUILT_IN_MEMPCPY) ||
          gimple_call_builtin_p(stmt, BUILT_IN_MEMMOVE)) {
        accesses.push_back({stmt, NULL_TREE, 0, 0, true});
        continue;
      }
      gassign* assign = dyn_cast<gassign*>(stmt);
      if (assign == nullptr || gimple_clobber_p(stmt)) continue;
      if (gimple_assign_single_p(assign)) {
        tree rhs = gimple_assign_rhs1(assign);
        if (TREE_CODE(rhs) != SSA_NAME && !is_gimple_min_invariant(rhs) && gimple_vuse(stmt))
          note_access(accesses, stmt, rhs, false);
      }
      if (gimple_store_p(assign)) note_access(accesses, stmt, gimple_assign_lhs(assign), true);
    }
  }
  return accesses;
}

void insert_sampled_accesses(const std::vector<SampledAccess>& accesses, unsigned int bits,
                             tree levels) {
  if (accesses.empty()) return;
  version_loops(accesses);
  for (const SampledAccess& access : accesses) insert_sampled_access(access, bits, levels);
  // The loops are found again by whoever needs them (LIM, after): the checks' blocks are not
  // kept in loop-closed SSA.
  loop_optimizer_finalize();
  free_dominance_info(CDI_DOMINATORS);
  free_dominance_info(CDI_POST_DOMINATORS);
}

}  // namespace larm_gcc
