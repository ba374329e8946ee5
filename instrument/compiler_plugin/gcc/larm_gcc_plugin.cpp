// larm's GCC plugin: counts, as the program runs natively, the floating-point operations (by
// precision, vector width and kind) and the bytes loaded and stored of every basic block, into the
// thread-local counts liblarm reads at each region's begin and end (compiler_counts.h). It is what
// larm's Valgrind tool counts, without Valgrind: the binary built for the machine (AVX-512, SVE)
// runs at close to its own speed, its threads in parallel.
//
// Where: a GIMPLE pass after "optimized", the last before expansion to RTL, so the operations
// counted are those left after vectorization (a vector statement counts its lanes) and FMA
// contraction (widening_mul: an .FMA counts 2 FLOPs a lane). What it cannot see is said in
// docs/regions.md: register spills and the stack traffic of calls (RTL's), and the work of code
// built without it (libm, OpenBLAS).
//
// How: each block is cut after every call (so that a region's begin or end, a call, reads counts
// that hold exactly what ran before it); each piece adds its static counts at its start, one
// add per count it has, to the thread's counts and to the function's own (larm profile's counts
// per function). memcpy, memmove and memset add their length at run time. Then GCC's
// loop-invariant motion runs again over the function: the adds in a loop without calls become
// register adds, stored once at the loop's exit.
//
// Options (-fplugin-arg-larm_gcc_plugin-NAME=VALUE), unknown ones refused:
//   cache-sample=N  the sampled cache model (compiler_counts.h, sampled_access.cpp): one line in N
//                   (a power of two, 2 to 65536) goes to the runtime's model.
#include "instrument/compiler_plugin/gcc/gcc_headers.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "instrument/compiler_plugin/compiler_counts.h"
#include "instrument/compiler_plugin/gcc/min_max_select.h"
#include "instrument/compiler_plugin/gcc/sampled_access.h"
#include "instrument/compiler_plugin/gcc/statement_counts.h"

int plugin_is_GPL_compatible;  // GCC loads only plugins that say so

namespace {

using larm_gcc::Counts;

// Functions of this unit (this object, or this LTO partition) the pass ran on.
unsigned long instrumented_functions = 0;
// The sampled cache model: one line in 2^bits goes to the runtime (0: no model).
unsigned int cache_sample_bits = 0;

// The array instrumented code adds to: an extern declaration the pass refers to (the definition,
// weak and in a COMDAT group, is written at the end of the unit's assembly: emit_definitions).
tree counts_declaration() {
  static tree decl = NULL_TREE;
  if (decl != NULL_TREE) return decl;
  tree type = build_array_type_nelts(long_long_unsigned_type_node, LARM_COUNT_N);
  decl = build_decl(UNKNOWN_LOCATION, VAR_DECL, get_identifier(LARM_COMPILER_COUNTS), type);
  TREE_PUBLIC(decl) = 1;
  DECL_EXTERNAL(decl) = 1;
  DECL_ARTIFICIAL(decl) = 1;
  TREE_USED(decl) = 1;
  set_decl_tls_model(decl, TLS_MODEL_INITIAL_EXEC);
  varpool_node::get_create(decl);
  return decl;
}

// A variable of the plugin's, static and local to the object, not for the debugger.
tree artificial_variable(const char* name, tree type) {
  tree decl = build_decl(UNKNOWN_LOCATION, VAR_DECL, create_tmp_var_name(name), type);
  TREE_STATIC(decl) = 1;
  TREE_PUBLIC(decl) = 0;
  DECL_ARTIFICIAL(decl) = 1;
  DECL_IGNORED_P(decl) = 1;
  TREE_USED(decl) = 1;
  return decl;
}

// A thread-local array of n counts, local to the object, zero at the thread's start: the fastest
// TLS model the object allows (local-exec in a program, initial-exec in a library).
tree thread_local_array(const char* name, unsigned long n) {
  tree decl = artificial_variable(name, build_array_type_nelts(long_long_unsigned_type_node, n));
  set_decl_tls_model(decl, std::max(decl_default_tls_model(decl), TLS_MODEL_INITIAL_EXEC));
  varpool_node::finalize_decl(decl);
  return decl;
}

// What a function counts of its own, for larm profile (compiler_counts.h): each piece of
// constant counts adds 1 to its own count of runs, not its counts again (one add, not one per
// count), and a table says what each piece counts; run-time amounts (a memcpy's length, a
// scalable vector's counts) are added to the function's direct counts. The unit's constructor
// hands all three to LARM_COMPILER_FUNCTION_COUNTS (emit_function_registration).
struct FunctionCounts {
  tree symbol = NULL_TREE;  // the linker symbol, a read-only string of the object
  tree direct = NULL_TREE;  // LARM_COUNT_N counts, or none
  tree levels = NULL_TREE;  // LARM_COUNT_N counts the sampled cache model adds to, or none
  tree pieces = NULL_TREE;  // one count of runs per piece, or none
  unsigned long piece_count = 0;
  std::vector<unsigned long long> table;  // pairs: piece << 8 | count index, amount
  tree table_decl = NULL_TREE;            // the table, a read-only array of the object
};
std::vector<FunctionCounts> function_counts;
// The function being instrumented, and where each of its pieces starts.
FunctionCounts current;
std::vector<gimple*> piece_starts;
// The constructor the plugin builds is not instrumented.
bool building_constructor = false;

tree direct_counts_declaration() {
  if (current.direct == NULL_TREE)
    current.direct = thread_local_array("__larm_function_counts", LARM_COUNT_N);
  return current.direct;
}

// --- the instrumentation -------------------------------------------------------------------

// counts[index] += amount, before gsi.
void add_to(gimple_stmt_iterator* gsi, tree counts, unsigned long index, tree amount) {
  tree type = long_long_unsigned_type_node;
  tree ref = build4(ARRAY_REF, type, counts, build_int_cst(integer_type_node, index), NULL_TREE,
                    NULL_TREE);
  tree before = make_temp_ssa_name(type, nullptr, "larm_count");
  tree after = make_temp_ssa_name(type, nullptr, "larm_count");
  gsi_insert_before(gsi, gimple_build_assign(before, ref), GSI_SAME_STMT);
  gsi_insert_before(gsi, gimple_build_assign(after, PLUS_EXPR, before, amount), GSI_SAME_STMT);
  gsi_insert_before(gsi, gimple_build_assign(unshare_expr(ref), after), GSI_SAME_STMT);
}

// An amount known at run time (an SSA value of the function, or a multiple of the vector
// length), before gsi: to the thread's counts and the function's direct ones.
void insert_add(gimple_stmt_iterator* gsi, int index, tree amount) {
  tree type = long_long_unsigned_type_node;
  if (!useless_type_conversion_p(type, TREE_TYPE(amount))) {
    tree converted = make_temp_ssa_name(type, nullptr, "larm_amount");
    gsi_insert_before(gsi, gimple_build_assign(converted, NOP_EXPR, amount), GSI_SAME_STMT);
    amount = converted;
  }
  add_to(gsi, counts_declaration(), index, amount);
  add_to(gsi, direct_counts_declaration(), index, amount);
}

// A piece's counts at its start: each to the thread's counts; the constant ones into the
// function's table, its count of runs added after the function is walked (count_pieces).
bool insert_counts(gimple_stmt_iterator* gsi, const Counts& counts) {
  bool any = false, constant = false;
  const unsigned long long piece = piece_starts.size();
  for (int index = 0; index < LARM_COUNT_N; ++index) {
    if (known_eq(counts[index], 0U)) continue;
    if (counts[index].is_constant()) {
      add_to(gsi, counts_declaration(), index,
             build_int_cst(long_long_unsigned_type_node, counts[index].to_constant()));
      current.table.push_back(piece << 8 | static_cast<unsigned long long>(index));
      current.table.push_back(counts[index].to_constant());
      constant = true;
    } else {
      insert_add(gsi, index,
                 build_int_cst(long_long_unsigned_type_node, poly_int64(counts[index])));
    }
    any = true;
  }
  if (constant) piece_starts.push_back(gsi_stmt(*gsi));
  return any;
}

// A read-only variable of the object, of `type` and `value`, written at once. Made while the
// functions are compiled, not at the unit's end, when GCC has written its variables (and, on a
// target of section anchors such as AArch64, its blocks of data).
tree read_only_declaration(const char* name, tree type, tree value) {
  tree decl = artificial_variable(name, type);
  TREE_READONLY(decl) = 1;
  TREE_CONSTANT(value) = 1;
  TREE_STATIC(value) = 1;
  DECL_INITIAL(decl) = value;
  varpool_node::finalize_decl(decl);
  // Written now (no code refers to it before the unit's constructor, made after the variables
  // are written), outside any block of section anchors: the constructor refers to its symbol.
  const int anchors = flag_section_anchors;
  flag_section_anchors = 0;
  varpool_node::get(decl)->assemble_decl();
  flag_section_anchors = anchors;
  return decl;
}

// A function's table, as an array of the object.
tree table_declaration(const std::vector<unsigned long long>& table) {
  tree type = build_array_type_nelts(long_long_unsigned_type_node, table.size());
  vec<constructor_elt, va_gc>* elements = nullptr;
  for (std::size_t i = 0; i < table.size(); ++i) {
    CONSTRUCTOR_APPEND_ELT(elements, build_int_cst(size_type_node, i),
                           build_int_cst(long_long_unsigned_type_node, table[i]));
  }
  return read_only_declaration("__larm_pieces", type, build_constructor(type, elements));
}

// A string, as an array of the object.
tree string_declaration(const char* text) {
  const std::size_t size = std::strlen(text) + 1;
  tree type = build_array_type_nelts(char_type_node, size);
  tree value = build_string(size, text);
  TREE_TYPE(value) = type;
  return read_only_declaration("__larm_symbol", type, value);
}

// Each piece of constant counts adds 1 to its count of runs, where its counts are added.
void count_pieces() {
  if (piece_starts.empty()) return;
  current.piece_count = piece_starts.size();
  current.pieces = thread_local_array("__larm_piece_runs", current.piece_count);
  tree one = build_int_cst(long_long_unsigned_type_node, 1);
  for (unsigned long k = 0; k < piece_starts.size(); ++k) {
    gimple_stmt_iterator gsi = gsi_for_stmt(piece_starts[k]);
    add_to(&gsi, current.pieces, k, one);
  }
}

// memcpy, memmove and memset (inline or in libc): their length, at run time.
bool insert_memory_builtin(gimple_stmt_iterator* gsi, const gcall* call) {
  if (!gimple_call_builtin_p(call, BUILT_IN_NORMAL)) return false;
  switch (DECL_FUNCTION_CODE(gimple_call_fndecl(call))) {
    case BUILT_IN_MEMCPY:
    case BUILT_IN_MEMMOVE:
    case BUILT_IN_MEMPCPY:
      insert_add(gsi, LARM_COUNT_BYTES_LOADED, gimple_call_arg(call, 2));
      insert_add(gsi, LARM_COUNT_BYTES_STORED, gimple_call_arg(call, 2));
      return true;
    case BUILT_IN_MEMSET:
      insert_add(gsi, LARM_COUNT_BYTES_STORED, gimple_call_arg(call, 2));
      return true;
    default:
      return false;
  }
}

// A call ends a piece of a block: GCC's internal functions and the inline builtins counted as
// operations are not calls.
bool ends_piece(const gimple* stmt) {
  const gcall* call = dyn_cast<const gcall*>(stmt);
  if (call == nullptr || gimple_call_internal_p(call)) return false;
  return larm_gcc::statement_builtin_kind(call) == LARM_FLOP_NONE;
}

bool instrument_block(basic_block bb) {
  bool changed = false;
  gimple_stmt_iterator start = gsi_after_labels(bb);
  Counts counts;  // poly_int has no zero default: filled below
  counts.fill(0U);
  for (gimple_stmt_iterator gsi = start; !gsi_end_p(gsi); gsi_next(&gsi)) {
    gimple* stmt = gsi_stmt(gsi);
    larm_gcc::statement_counts(counts, stmt);
    if (const gcall* call = dyn_cast<const gcall*>(stmt)) {
      gimple_stmt_iterator at_call = gsi;
      changed |= insert_memory_builtin(&at_call, call);
    }
    if (!ends_piece(stmt)) continue;
    // The piece [start, this call]: its counts at its start, then a new piece after the call.
    changed |= insert_counts(&start, counts);
    counts.fill(0U);
    start = gsi;
    gsi_next(&start);
    if (gsi_end_p(start)) {
      // The call ends the block (it may throw): what follows is in the next block.
      return changed;
    }
  }
  // The min and max selects the block's condition decides, with its last piece, which holds the
  // condition.
  const std::array<unsigned, 2> selects = larm_gcc::min_max_selects(bb);
  for (int precision = 0; precision < 2; ++precision) {
    counts[larm_count_width_index(precision == 0, 1)] += selects[precision];
    counts[LARM_COUNT_ADD_FLOPS] += selects[precision];
  }
  // A block of labels alone counts nothing.
  if (!gsi_end_p(start)) changed |= insert_counts(&start, counts);
  return changed;
}

const pass_data kPassData = {
    GIMPLE_PASS, "larm_count", OPTGROUP_NONE, TV_NONE, PROP_ssa | PROP_cfg, 0, 0, 0, 0,
};

class CountPass : public gimple_opt_pass {
 public:
  explicit CountPass(gcc::context* ctx)
      : gimple_opt_pass(kPassData, ctx), lim_(make_pass_lim(ctx)) {}

  unsigned int execute(function* fun) override {
    if (building_constructor) return 0;
    bool changed = false;
    current = FunctionCounts();
    piece_starts.clear();
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) changed |= instrument_block(bb);
    count_pieces();
    unsigned int todo = 0;
    if (changed) {
      mark_virtual_operands_for_renaming(fun);
      update_ssa(TODO_update_ssa_only_virtuals);
      // Loop-invariant motion turns a loop's counts into registers (its store motion), when the
      // loop has no call and no store that may alias them.
      if (optimize > 0 && lim_->gate(fun)) todo |= lim_->execute(fun);
    }
    if (cache_sample_bits > 0) {
      // The sampled cache model's checks, on the accesses left after LIM (what the machine code
      // will do), their loops versioned: the function in SSA form first.
      if (todo & TODO_update_ssa_any) update_ssa(todo & TODO_update_ssa_any);
      todo &= ~TODO_update_ssa_any;
      const std::vector<larm_gcc::SampledAccess> accesses = larm_gcc::program_accesses(fun);
      if (!accesses.empty()) {
        current.levels = thread_local_array("__larm_function_levels", LARM_COUNT_N);
        larm_gcc::insert_sampled_accesses(accesses, cache_sample_bits, current.levels);
        todo |= TODO_cleanup_cfg;
      }
    }
    if (current.direct != NULL_TREE || current.pieces != NULL_TREE || current.levels != NULL_TREE) {
      current.symbol = string_declaration(IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fun->decl)));
      if (!current.table.empty()) current.table_decl = table_declaration(current.table);
      function_counts.push_back(current);
    }
    ++instrumented_functions;
    return todo;
  }

 private:
  opt_pass* lim_;
};

// The unit's constructor: for each function with counts of its own,
//   if (&__larm_function_counts)
//     __larm_function_counts(mark, "symbol", direct, piece_runs, pieces, table, table_pairs,
//                            levels);
// the reference weak, so that a program run without larm profile's library calls nothing.
void emit_function_registration() {
  if (function_counts.empty()) return;
  tree counts_pointer = build_pointer_type(long_long_unsigned_type_node);
  tree size = long_unsigned_type_node;
  tree type = build_function_type_list(void_type_node, unsigned_type_node, const_ptr_type_node,
                                       counts_pointer, counts_pointer, size, const_ptr_type_node,
                                       size, counts_pointer, NULL_TREE);
  tree callee = build_decl(UNKNOWN_LOCATION, FUNCTION_DECL,
                           get_identifier(LARM_COMPILER_FUNCTION_COUNTS), type);
  TREE_PUBLIC(callee) = 1;
  DECL_EXTERNAL(callee) = 1;
  DECL_ARTIFICIAL(callee) = 1;
  declare_weak(callee);
  const auto address = [&](tree decl, tree pointer) {
    return decl == NULL_TREE ? build_int_cst(pointer, 0)
                             : fold_convert(pointer, build_fold_addr_expr(decl));
  };
  tree calls = NULL_TREE;
  for (const FunctionCounts& function : function_counts) {
    append_to_statement_list(
        build_call_expr(
            callee, 8, build_int_cst(unsigned_type_node, LARM_COMPILER_MARK_VALUE),
            address(function.symbol, const_ptr_type_node), address(function.direct, counts_pointer),
            address(function.pieces, counts_pointer), build_int_cst(size, function.piece_count),
            address(function.table_decl, const_ptr_type_node),
            build_int_cst(size, function.table.size() / 2),
            address(function.levels, counts_pointer)),
        &calls);
  }
  tree defined = build2(NE_EXPR, boolean_type_node, build_fold_addr_expr(callee),
                        build_int_cst(build_pointer_type(type), 0));
  tree body = build3(COND_EXPR, void_type_node, defined, calls, NULL_TREE);
  building_constructor = true;
  cgraph_build_static_cdtor('I', body, DEFAULT_INIT_PRIORITY);
  building_constructor = false;
  // GCC has written its weak declarations by now (weak_finish): this one is said here.
  std::fprintf(asm_out_file, "\t.weak %s\n", LARM_COMPILER_FUNCTION_COUNTS);
}

// The definitions every instrumented object carries, and its line in LARM_COMPILER_SECTION:
// written at the end of the unit's assembly, once per object (with -flto, once per partition of
// the link, where the pass runs; the compile step's slim object, which holds no instrumented
// code, says nothing: a link without the plugin leaves a program that does not claim counts).
void emit_definitions(void* /*gcc_data*/, void* /*user_data*/) {
  if (asm_out_file == nullptr || instrumented_functions == 0) return;
  emit_function_registration();
  const std::string counts = LARM_COMPILER_COUNTS, mark = LARM_COMPILER_MARK;
  const std::string bytes = std::to_string(8 * LARM_COUNT_N);
  const std::string sampling =
      cache_sample_bits > 0
          ? std::string(LARM_CACHE_SAMPLE_TOKEN) + std::to_string(1UL << cache_sample_bits) + " "
          : "";
  if (cache_sample_bits > 0) {
    std::fprintf(asm_out_file, "\t.weak %s\n\t.weak %s\n", LARM_CACHE_ACCESS, LARM_CACHE_BYTES);
  }
  std::string source = main_input_filename != nullptr ? main_input_filename : "";
  for (char& c : source) {
    if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20) c = '?';
  }
  const std::string text =
      "\t.pushsection .tbss." + counts + ",\"awTG\",@nobits," + counts + ",comdat\n" + "\t.weak " +
      counts + "\n\t.type " + counts + ", @object\n\t.size " + counts + ", " + bytes +
      "\n\t.p2align 6\n" + counts + ":\n\t.zero " + bytes + "\n\t.popsection\n" +
      "\t.pushsection .rodata." + mark + ",\"aG\",@progbits," + mark + ",comdat\n" + "\t.weak " +
      mark + "\n\t.type " + mark + ", @object\n\t.size " + mark + ", 4\n\t.p2align 2\n" + mark +
      ":\n\t.long " + std::to_string(LARM_COMPILER_MARK_VALUE) + "\n\t.popsection\n" +
      "\t.pushsection " + LARM_COMPILER_SECTION + ",\"aR\",@progbits\n\t.ascii \"larm-gcc-plugin " +
      std::to_string(LARM_COMPILER_PLUGIN_VERSION) + " counts " + std::to_string(LARM_COUNT_N) +
      " gcc " + version_string + " " + sampling + source + "\\n\"\n\t.popsection\n";
  std::fputs(text.c_str(), asm_out_file);
}

}  // namespace

int plugin_init(struct plugin_name_args* info, struct plugin_gcc_version* version) {
  if (!plugin_default_version_check(version, &gcc_version)) {
    error(
        "larm: this plugin was built for GCC %s and cannot run in GCC %s: use the larm-cc of "
        "this compiler",
        gcc_version.basever, version->basever);
    return 1;
  }
  for (int i = 0; i < info->argc; ++i) {
    const plugin_argument& arg = info->argv[i];
    if (std::strcmp(arg.key, "cache-sample") == 0) {
      const unsigned long n = arg.value != nullptr ? std::strtoul(arg.value, nullptr, 10) : 0;
      if (n < 2 || n > 65536 || (n & (n - 1)) != 0) {
        error("larm: cache-sample=%qs: give a power of two from 2 to 65536 (one line in N)",
              arg.value != nullptr ? arg.value : "");
        return 1;
      }
      cache_sample_bits = static_cast<unsigned int>(__builtin_ctzl(n));
      continue;
    }
    error("larm: unknown plugin option %qs", arg.key);
    return 1;
  }
  static struct plugin_info about = {"1", "counts FLOPs and bytes per basic block for larm"};
  register_callback(info->base_name, PLUGIN_INFO, nullptr, &about);
  struct register_pass_info pass;
  pass.pass = new CountPass(g);
  pass.reference_pass_name = "optimized";
  pass.ref_pass_instance_number = 1;
  pass.pos_op = PASS_POS_INSERT_AFTER;
  register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, nullptr, &pass);
  register_callback(info->base_name, PLUGIN_FINISH_UNIT, emit_definitions, nullptr);
  return 0;
}
