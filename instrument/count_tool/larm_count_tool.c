/* larmcount: a Valgrind tool that counts, per thread, the floating-point operations (by
 * precision and vector width), the bytes loaded and stored and the instructions a program
 * executes, so that `larm count` can give the regions of liblarm exact counts on machines
 * without hardware counters (CARM does the same with DynamoRIO or Intel SDE).
 *
 * How: each superblock's IR is walked once at translation; what its statements do is tallied
 * statically and added to the running thread's counters by a few inline IR additions before
 * every side exit and at the end (the way lackey's fast instruction count does), so nothing is
 * called per instruction. Guarded loads and stores (masked AVX moves) are counted by a helper
 * that runs only when the guard holds. Valgrind runs one thread at a time: the counters of the
 * running thread live in one global array, swapped when the scheduler switches threads.
 * liblarm reads them through a client request (count_protocol.h) at each region's begin and
 * end; `--larm-out=FILE` writes the whole program's totals as JSON at exit (the process Valgrind
 * started, not the ones it forks).
 *
 * With `--larm-cache=SIZE:WAYS:LINE,...` (innermost level first, at most three), every data
 * access also goes through a model of the node's caches: the levels but the last private to each
 * thread (one thread per core), the last shared; set-associative, LRU, write-back and
 * write-allocate, no prefetching. What each level beyond L1 serves, and memory, is counted per
 * thread (count_protocol.h) in whole lines: the memory-level roofline of `larm place`. It is
 * what cachegrind does for one level, for the capacities larm measured.
 *
 * With `--larm-functions=FILE`, every count is also kept per function (the symbol that holds the
 * instruction, so inlined code counts to its caller; a library's by library and symbol) and per
 * thread, written to FILE at exit: `larm profile` places the hot functions of a program that was
 * neither edited nor rebuilt. Each thread's counts live in a table of rows, one per function
 * seen so far; generated code adds to the running thread's row through a pointer swapped with
 * the thread, so a new function found by one thread costs the others nothing until they run.
 *
 * This file counts per thread, translates and takes the options; count_functions.c keeps the
 * counts per function, count_cache_model.c is the cache model, count_output.c writes at exit
 * (count_tool_state.h: what they share). */
#include "pub_tool_aspacemgr.h"
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"

#include "count_protocol.h"
#include "count_tool_state.h"

ULong running[LARM_COUNT_N]; /* counts of the thread that runs now */
/* Of every thread while it does not run, VG_N_THREADS rows (--max-threads), from post_clo_init. */
ULong (*saved)[LARM_COUNT_N];
ULong retired[LARM_COUNT_N]; /* of threads that ended */
ThreadId running_tid = VG_INVALID_THREADID;
const HChar* totals_path = NULL;
/* The process Valgrind started: a process it forks runs fini too, and must not write the totals
 * of the one that started it over them. */
static Int started_pid = -1;

static void switch_to(ThreadId tid) {
  if (tid == running_tid) return;
  if (running_tid != VG_INVALID_THREADID) VG_(memcpy)(saved[running_tid], running, sizeof running);
  VG_(memcpy)(running, saved[tid], sizeof running);
  running_tid = tid;
  select_private_levels(tid);
  if (functions_path != NULL) {
    grow_table(tid);
    running_functions = function_tables[tid];
  }
}

static void on_start_client_code(ThreadId tid, ULong blocks_done) {
  (void)blocks_done;
  switch_to(tid);
}

/* A thread slot is reused: what its previous thread counted is kept in the totals. */
static void on_thread_create(ThreadId parent, ThreadId child) {
  (void)parent;
  Int i;
  if (child == running_tid) {
    for (i = 0; i < LARM_COUNT_N; ++i) retired[i] += running[i];
    VG_(memset)(running, 0, sizeof running);
  } else {
    for (i = 0; i < LARM_COUNT_N; ++i) retired[i] += saved[child][i];
  }
  VG_(memset)(saved[child], 0, sizeof saved[child]);
  if (functions_path != NULL && function_tables[child] != NULL) {
    UInt k, rows = function_rows[child];
    if (retired_rows < function_capacity) {
      ULong* grown =
          VG_(calloc)("larmcount.retired", (SizeT)function_capacity * LARM_COUNT_N, sizeof(ULong));
      if (retired_functions != NULL) {
        VG_(memcpy)(grown, retired_functions, (SizeT)retired_rows * LARM_COUNT_N * sizeof(ULong));
        VG_(free)(retired_functions);
      }
      retired_functions = grown;
      retired_rows = function_capacity;
    }
    for (k = 0; k < rows * LARM_COUNT_N; ++k) retired_functions[k] += function_tables[child][k];
    VG_(memset)(function_tables[child], 0, (SizeT)rows * LARM_COUNT_N * sizeof(ULong));
  }
  /* A new thread starts with cold private caches. */
  if (levels > 1 && private_levels[child][0].tags != NULL) {
    Int k;
    for (k = 0; k < levels - 1; ++k) cache_clear(&private_levels[child][k]);
  }
}

/* --- what an instruction does, tallied at translation ------------------------------------ */

typedef struct {
  ULong add[LARM_COUNT_N]; /* what the statements walked since the last flush add */
} Pending;

/* The kinds of FP operation counted apart: the FP adder's (add, sub, min, max), multiplies,
 * divisions and square roots, fused multiply-adds. */
typedef enum { KIND_ADD = 0, KIND_MUL, KIND_DIV, KIND_FMA, KIND_N } FlopKind;

/* FLOP operations of the current guest instruction, before its width is known. */
typedef struct {
  ULong flops[2];        /* [0] double, [1] single */
  ULong by_kind[KIND_N]; /* both precisions */
  UInt lanes[2];         /* the widest vector operation's lanes */
  UInt scalar_ops[2];    /* scalar operations: an FMA of 4 lanes is 4 scalar MAdds in the IR */
} InstructionFlops;

typedef enum { PREC_NONE = -1, PREC_DP = 0, PREC_SP = 1 } Precision;

static FlopKind kind_of(IROp op) {
  switch (op) {
    case Iop_MulF64:
    case Iop_MulF64r32:
    case Iop_Mul64F0x2:
    case Iop_MulF32:
    case Iop_Mul32F0x4:
    case Iop_Mul64Fx2:
    case Iop_Mul64Fx4:
    case Iop_Mul32Fx2:
    case Iop_Mul32Fx4:
    case Iop_Mul32Fx8:
      return KIND_MUL;
    case Iop_DivF64:
    case Iop_SqrtF64:
    case Iop_DivF64r32:
    case Iop_Div64F0x2:
    case Iop_Sqrt64F0x2:
    case Iop_DivF32:
    case Iop_SqrtF32:
    case Iop_Div32F0x4:
    case Iop_Sqrt32F0x4:
    case Iop_Div64Fx2:
    case Iop_Sqrt64Fx2:
    case Iop_Div64Fx4:
    case Iop_Sqrt64Fx4:
    case Iop_Div32Fx4:
    case Iop_Sqrt32Fx4:
    case Iop_Div32Fx8:
    case Iop_Sqrt32Fx8:
      return KIND_DIV;
    case Iop_MAddF64:
    case Iop_MSubF64:
    case Iop_MAddF64r32:
    case Iop_MSubF64r32:
    case Iop_MAddF32:
    case Iop_MSubF32:
      return KIND_FMA;
    default:
      return KIND_ADD;
  }
}

/* The precision, lanes (0: a scalar operation) and FLOPs per lane of an IR operation. */
static Precision classify(IROp op, UInt* lanes, UInt* per_lane) {
  *lanes = 0;
  *per_lane = 1;
  switch (op) {
    /* scalar: x87, SSE's F0x2/F0x4 forms work on the low lane only */
    case Iop_AddF64:
    case Iop_SubF64:
    case Iop_MulF64:
    case Iop_DivF64:
    case Iop_SqrtF64:
    case Iop_AddF64r32:
    case Iop_SubF64r32:
    case Iop_MulF64r32:
    case Iop_DivF64r32:
    case Iop_MaxNumF64:
    case Iop_MinNumF64:
    case Iop_Add64F0x2:
    case Iop_Sub64F0x2:
    case Iop_Mul64F0x2:
    case Iop_Div64F0x2:
    case Iop_Max64F0x2:
    case Iop_Min64F0x2:
    case Iop_Sqrt64F0x2:
      return PREC_DP;
    case Iop_MAddF64:
    case Iop_MSubF64:
    case Iop_MAddF64r32:
    case Iop_MSubF64r32:
      *per_lane = 2;
      return PREC_DP;
    case Iop_AddF32:
    case Iop_SubF32:
    case Iop_MulF32:
    case Iop_DivF32:
    case Iop_SqrtF32:
    case Iop_MaxNumF32:
    case Iop_MinNumF32:
    case Iop_Add32F0x4:
    case Iop_Sub32F0x4:
    case Iop_Mul32F0x4:
    case Iop_Div32F0x4:
    case Iop_Max32F0x4:
    case Iop_Min32F0x4:
    case Iop_Sqrt32F0x4:
      return PREC_SP;
    case Iop_MAddF32:
    case Iop_MSubF32:
      *per_lane = 2;
      return PREC_SP;
    /* packed */
    case Iop_Add64Fx2:
    case Iop_Sub64Fx2:
    case Iop_Mul64Fx2:
    case Iop_Div64Fx2:
    case Iop_Max64Fx2:
    case Iop_Min64Fx2:
    case Iop_Sqrt64Fx2:
      *lanes = 2;
      return PREC_DP;
    case Iop_Add64Fx4:
    case Iop_Sub64Fx4:
    case Iop_Mul64Fx4:
    case Iop_Div64Fx4:
    case Iop_Max64Fx4:
    case Iop_Min64Fx4:
    case Iop_Sqrt64Fx4:
      *lanes = 4;
      return PREC_DP;
    case Iop_Add32Fx2:
    case Iop_Sub32Fx2:
    case Iop_Mul32Fx2:
    case Iop_Max32Fx2:
    case Iop_Min32Fx2:
      *lanes = 2;
      return PREC_SP;
    case Iop_Add32Fx4:
    case Iop_Sub32Fx4:
    case Iop_Mul32Fx4:
    case Iop_Div32Fx4:
    case Iop_Max32Fx4:
    case Iop_Min32Fx4:
    case Iop_Sqrt32Fx4:
      *lanes = 4;
      return PREC_SP;
    case Iop_Add32Fx8:
    case Iop_Sub32Fx8:
    case Iop_Mul32Fx8:
    case Iop_Div32Fx8:
    case Iop_Max32Fx8:
    case Iop_Min32Fx8:
    case Iop_Sqrt32Fx8:
      *lanes = 8;
      return PREC_SP;
    default:
      return PREC_NONE;
  }
}

static void tally_op(InstructionFlops* insn, IROp op) {
  UInt lanes, per_lane;
  const Precision p = classify(op, &lanes, &per_lane);
  if (p == PREC_NONE) return;
  if (lanes == 0) {
    insn->scalar_ops[p] += 1;
    insn->flops[p] += per_lane;
    insn->by_kind[kind_of(op)] += per_lane;
  } else {
    if (lanes > insn->lanes[p]) insn->lanes[p] = lanes;
    insn->flops[p] += (ULong)lanes * per_lane;
    insn->by_kind[kind_of(op)] += (ULong)lanes * per_lane;
  }
}

/* The instruction's FLOPs into the counter of its width. */
static void close_instruction(InstructionFlops* insn, Pending* pending) {
  static const Int first[2] = {LARM_COUNT_DP_SCALAR, LARM_COUNT_SP_SCALAR};
  Int p;
  for (p = 0; p < 2; ++p) {
    if (insn->flops[p] == 0) continue;
    UInt lanes = insn->lanes[p] > insn->scalar_ops[p] ? insn->lanes[p] : insn->scalar_ops[p];
    const UInt lanes_in_128 = p == PREC_DP ? 2 : 4;
    Int width = lanes <= 1 ? 0 : lanes <= lanes_in_128 ? 1 : lanes <= 2 * lanes_in_128 ? 2 : 3;
    pending->add[first[p] + width] += insn->flops[p];
  }
  pending->add[LARM_COUNT_ADD_FLOPS] += insn->by_kind[KIND_ADD];
  pending->add[LARM_COUNT_MUL_FLOPS] += insn->by_kind[KIND_MUL];
  pending->add[LARM_COUNT_DIV_FLOPS] += insn->by_kind[KIND_DIV];
  pending->add[LARM_COUNT_FMA_FLOPS] += insn->by_kind[KIND_FMA];
  VG_(memset)(insn, 0, sizeof *insn);
}

static void add_constant(IRSB* sb, Int index, ULong amount) {
  IRExpr* address = mkIRExpr_HWord((HWord)&running[index]);
  IRTemp old = newIRTemp(sb->tyenv, Ity_I64);
  IRTemp sum = newIRTemp(sb->tyenv, Ity_I64);
  addStmtToIRSB(sb, IRStmt_WrTmp(old, IRExpr_Load(Iend_LE, Ity_I64, address)));
  addStmtToIRSB(sb, IRStmt_WrTmp(sum, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(old),
                                                   IRExpr_Const(IRConst_U64(amount)))));
  addStmtToIRSB(sb, IRStmt_Store(Iend_LE, address, IRExpr_RdTmp(sum)));
}

/* The running thread's row of `function`: its table's address, loaded when the code runs. */
static void add_to_function(IRSB* sb, IRTemp table, UInt function, Int index, ULong amount) {
  IRTemp address = newIRTemp(sb->tyenv, Ity_I64);
  IRTemp old = newIRTemp(sb->tyenv, Ity_I64);
  IRTemp sum = newIRTemp(sb->tyenv, Ity_I64);
  const ULong offset = ((ULong)function * LARM_COUNT_N + (ULong)index) * sizeof(ULong);
  addStmtToIRSB(sb, IRStmt_WrTmp(address, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(table),
                                                       IRExpr_Const(IRConst_U64(offset)))));
  addStmtToIRSB(sb, IRStmt_WrTmp(old, IRExpr_Load(Iend_LE, Ity_I64, IRExpr_RdTmp(address))));
  addStmtToIRSB(sb, IRStmt_WrTmp(sum, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(old),
                                                   IRExpr_Const(IRConst_U64(amount)))));
  addStmtToIRSB(sb, IRStmt_Store(Iend_LE, IRExpr_RdTmp(address), IRExpr_RdTmp(sum)));
}

/* The current function's id (per function counts), or 0 when not counting per function. */
static UInt current_function = 0;

static void flush(IRSB* sb, Pending* pending) {
  Int i;
  Bool any = False;
  for (i = 0; i < LARM_COUNT_N; ++i) {
    if (pending->add[i] != 0) {
      add_constant(sb, i, pending->add[i]);
      any = True;
    }
  }
  if (any && functions_path != NULL) {
    IRTemp table = newIRTemp(sb->tyenv, Ity_I64);
    addStmtToIRSB(sb, IRStmt_WrTmp(table, IRExpr_Load(Iend_LE, Ity_I64,
                                                      mkIRExpr_HWord((HWord)&running_functions))));
    for (i = 0; i < LARM_COUNT_N; ++i) {
      if (pending->add[i] != 0) add_to_function(sb, table, current_function, i, pending->add[i]);
    }
  }
  VG_(memset)(pending, 0, sizeof *pending);
}

/* Guarded accesses: counted when the guard holds. */
static VG_REGPARM(2) void count_guarded_load(HWord bytes, HWord function) {
  running[LARM_COUNT_LOADS] += 1;
  running[LARM_COUNT_BYTES_LOADED] += bytes;
  if (functions_path != NULL) {
    ULong* row = running_functions + (SizeT)function * LARM_COUNT_N;
    row[LARM_COUNT_LOADS] += 1;
    row[LARM_COUNT_BYTES_LOADED] += bytes;
  }
}
static VG_REGPARM(2) void count_guarded_store(HWord bytes, HWord function) {
  running[LARM_COUNT_STORES] += 1;
  running[LARM_COUNT_BYTES_STORED] += bytes;
  if (functions_path != NULL) {
    ULong* row = running_functions + (SizeT)function * LARM_COUNT_N;
    row[LARM_COUNT_STORES] += 1;
    row[LARM_COUNT_BYTES_STORED] += bytes;
  }
}

static void add_guarded(IRSB* sb, IRExpr* guard, Bool store, UInt bytes) {
  IRDirty* call = store
                      ? unsafeIRDirty_0_N(
                            2, "count_guarded_store", VG_(fnptr_to_fnentry)(count_guarded_store),
                            mkIRExprVec_2(mkIRExpr_HWord(bytes), mkIRExpr_HWord(current_function)))
                      : unsafeIRDirty_0_N(
                            2, "count_guarded_load", VG_(fnptr_to_fnentry)(count_guarded_load),
                            mkIRExprVec_2(mkIRExpr_HWord(bytes), mkIRExpr_HWord(current_function)));
  call->guard = guard;
  addStmtToIRSB(sb, IRStmt_Dirty(call));
}

/* A call of the cache model for an access of `bytes` at `address`, under `guard` (NULL: always). */
static void add_model_call(IRSB* sb, IRExpr* address, UInt bytes, Bool write, IRExpr* guard) {
  IRDirty* call;
  if (levels == 0 || bytes == 0) return;
  call = write
             ? unsafeIRDirty_0_N(
                   3, "model_write", VG_(fnptr_to_fnentry)(model_write),
                   mkIRExprVec_3(address, mkIRExpr_HWord(bytes), mkIRExpr_HWord(current_function)))
             : unsafeIRDirty_0_N(
                   3, "model_read", VG_(fnptr_to_fnentry)(model_read),
                   mkIRExprVec_3(address, mkIRExpr_HWord(bytes), mkIRExpr_HWord(current_function)));
  if (guard != NULL) call->guard = guard;
  addStmtToIRSB(sb, IRStmt_Dirty(call));
}

static UInt load_g_bytes(IRLoadGOp cvt) {
  switch (cvt) {
    case ILGop_IdentV128:
      return 16;
    case ILGop_Ident64:
      return 8;
    case ILGop_Ident32:
      return 4;
    case ILGop_16Uto32:
    case ILGop_16Sto32:
      return 2;
    case ILGop_8Uto32:
    case ILGop_8Sto32:
      return 1;
    default:
      return 0;
  }
}

static IRSB* instrument(VgCallbackClosure* closure, IRSB* in, const VexGuestLayout* layout,
                        const VexGuestExtents* extents, const VexArchInfo* arch, IRType word,
                        IRType host_word) {
  (void)closure;
  (void)layout;
  (void)extents;
  (void)arch;
  (void)word;
  (void)host_word;
  IRSB* out = deepCopyIRSBExceptStmts(in);
  Pending pending;
  InstructionFlops insn;
  VG_(memset)(&pending, 0, sizeof pending);
  VG_(memset)(&insn, 0, sizeof insn);
  Int i = 0;
  /* The preamble before the first instruction mark is Valgrind's, not the program's. */
  while (i < in->stmts_used && in->stmts[i]->tag != Ist_IMark) addStmtToIRSB(out, in->stmts[i++]);
  if (functions_path != NULL && i < in->stmts_used) {
    current_function = function_id((Addr)in->stmts[i]->Ist.IMark.addr);
  }
  for (; i < in->stmts_used; ++i) {
    IRStmt* st = in->stmts[i];
    if (st == NULL) continue;
    switch (st->tag) {
      case Ist_IMark:
        close_instruction(&insn, &pending);
        if (functions_path != NULL) {
          /* A superblock may run through several functions: what came before goes to its own. */
          const UInt function = function_id((Addr)st->Ist.IMark.addr);
          if (function != current_function) {
            flush(out, &pending);
            current_function = function;
          }
        }
        pending.add[LARM_COUNT_INSTRUCTIONS] += 1;
        break;
      case Ist_WrTmp: {
        IRExpr* e = st->Ist.WrTmp.data;
        if (e->tag == Iex_Load) {
          pending.add[LARM_COUNT_LOADS] += 1;
          pending.add[LARM_COUNT_BYTES_LOADED] += sizeofIRType(e->Iex.Load.ty);
          add_model_call(out, e->Iex.Load.addr, sizeofIRType(e->Iex.Load.ty), False, NULL);
        } else if (e->tag == Iex_Unop) {
          tally_op(&insn, e->Iex.Unop.op);
        } else if (e->tag == Iex_Binop) {
          tally_op(&insn, e->Iex.Binop.op);
        } else if (e->tag == Iex_Triop) {
          tally_op(&insn, e->Iex.Triop.details->op);
        } else if (e->tag == Iex_Qop) {
          tally_op(&insn, e->Iex.Qop.details->op);
        }
        break;
      }
      case Ist_Store:
        pending.add[LARM_COUNT_STORES] += 1;
        pending.add[LARM_COUNT_BYTES_STORED] +=
            sizeofIRType(typeOfIRExpr(in->tyenv, st->Ist.Store.data));
        add_model_call(out, st->Ist.Store.addr,
                       sizeofIRType(typeOfIRExpr(in->tyenv, st->Ist.Store.data)), True, NULL);
        break;
      case Ist_StoreG: {
        IRStoreG* sg = st->Ist.StoreG.details;
        add_guarded(out, sg->guard, True, sizeofIRType(typeOfIRExpr(in->tyenv, sg->data)));
        add_model_call(out, sg->addr, sizeofIRType(typeOfIRExpr(in->tyenv, sg->data)), True,
                       sg->guard);
        break;
      }
      case Ist_LoadG: {
        IRLoadG* lg = st->Ist.LoadG.details;
        add_guarded(out, lg->guard, False, load_g_bytes(lg->cvt));
        add_model_call(out, lg->addr, load_g_bytes(lg->cvt), False, lg->guard);
        break;
      }
      case Ist_CAS: {
        IRCAS* cas = st->Ist.CAS.details;
        const UInt bytes =
            sizeofIRType(typeOfIRExpr(in->tyenv, cas->dataLo)) * (cas->dataHi != NULL ? 2 : 1);
        pending.add[LARM_COUNT_LOADS] += 1;
        pending.add[LARM_COUNT_BYTES_LOADED] += bytes;
        pending.add[LARM_COUNT_STORES] += 1;
        pending.add[LARM_COUNT_BYTES_STORED] += bytes;
        add_model_call(out, cas->addr, bytes, True, NULL);
        break;
      }
      case Ist_LLSC:
        if (st->Ist.LLSC.storedata == NULL) {
          pending.add[LARM_COUNT_LOADS] += 1;
          pending.add[LARM_COUNT_BYTES_LOADED] +=
              sizeofIRType(typeOfIRTemp(in->tyenv, st->Ist.LLSC.result));
        } else {
          pending.add[LARM_COUNT_STORES] += 1;
          pending.add[LARM_COUNT_BYTES_STORED] +=
              sizeofIRType(typeOfIRExpr(in->tyenv, st->Ist.LLSC.storedata));
        }
        break;
      case Ist_Dirty: {
        /* Helpers that touch memory (fxsave, xsave, cpuid-like state) say how much. */
        IRDirty* d = st->Ist.Dirty.details;
        if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify) {
          pending.add[LARM_COUNT_LOADS] += 1;
          pending.add[LARM_COUNT_BYTES_LOADED] += d->mSize;
        }
        if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify) {
          pending.add[LARM_COUNT_STORES] += 1;
          pending.add[LARM_COUNT_BYTES_STORED] += d->mSize;
        }
        if (d->mFx != Ifx_None && d->mAddr != NULL) {
          add_model_call(out, d->mAddr, d->mSize, d->mFx != Ifx_Read, d->guard);
        }
        break;
      }
      case Ist_Exit:
        /* What ran before a taken side exit is counted; what follows it may not run. */
        close_instruction(&insn, &pending);
        flush(out, &pending);
        break;
      default:
        break;
    }
    addStmtToIRSB(out, st);
  }
  close_instruction(&insn, &pending);
  flush(out, &pending);
  return out;
}

/* --- client requests, options, totals ---------------------------------------------------- */

static Bool handle_request(ThreadId tid, UWord* args, UWord* answer) {
  if (!VG_IS_TOOL_USERREQ('L', 'C', args[0])) return False;
  if (args[0] != LARM_COUNT_REQUEST_READ) return False;
  switch_to(tid);
  ULong* into = (ULong*)args[1];
  UWord wanted = args[2] < LARM_COUNT_N ? args[2] : LARM_COUNT_N;
  UWord i;
  /* The address is the program's word: written only where the program itself may write, else
   * the request is refused (answer 0, as outside the tool) rather than Valgrind crashing. */
  if (wanted > 0 &&
      !VG_(am_is_valid_for_client)((Addr)into, wanted * sizeof(ULong), VKI_PROT_WRITE)) {
    VG_(umsg)("larmcount: a read request gave an address the program cannot write: refused\n");
    *answer = 0;
    return True;
  }
  for (i = 0; i < wanted; ++i) into[i] = running[i];
  *answer = ((UWord)LARM_COUNT_PROTOCOL_VERSION << 16) | LARM_COUNT_N;
  return True;
}

static Bool process_option(const HChar* arg) {
  if VG_STR_CLO (arg, "--larm-out", totals_path) {
  } else if VG_STR_CLO (arg, "--larm-functions", functions_path) {
  } else if VG_STR_CLO (arg, "--larm-cache", cache_option) {
    if (!parse_cache_option(cache_option)) {
      VG_(fmsg_bad_option)
      (arg,
       "expected SIZE:WAYS:LINE[,SIZE:WAYS:LINE...], at most 3 levels, "
       "LINE a power of two from 8 to 4096, SIZE at least WAYS lines, "
       "at most 64 GiB and 2^28 lines\n");
    }
  } else
    return False;
  return True;
}

static void print_usage(void) {
  VG_(printf)("    --larm-out=FILE           write the program's total counts as JSON\n");
  VG_(printf)
  ("    --larm-functions=FILE     write the counts per function and thread (%%p: pid)\n");
  VG_(printf)
  ("    --larm-cache=SIZE:WAYS:LINE,...  model these caches (innermost first; the\n"
   "                              last shared, the others per thread)\n");
}

static void print_debug_usage(void) {}

static void post_clo_init(void) {
  started_pid = VG_(getpid)();
  saved = VG_(calloc)("larmcount.saved", VG_N_THREADS, sizeof *saved);
  if (functions_path != NULL) {
    grow_hash();
    function_tables = VG_(calloc)("larmcount.tables", VG_N_THREADS, sizeof *function_tables);
    function_rows = VG_(calloc)("larmcount.rows", VG_N_THREADS, sizeof *function_rows);
  }
  if (levels > 0) {
    private_levels = VG_(calloc)("larmcount.private", VG_N_THREADS, sizeof *private_levels);
    cache_allocate(&shared_level, &shape[levels - 1], "larmcount.shared");
  }
}
static void fini(Int exit_code) {
  (void)exit_code;
  if (totals_path != NULL && VG_(getpid)() == started_pid) write_totals();
  if (functions_path != NULL) write_functions();
}

static void pre_clo_init(void) {
  VG_(details_name)("larmcount");
  VG_(details_version)("1");
  VG_(details_description)("larm's FLOP and byte counter (larm count)");
  VG_(details_copyright_author)("larm developers; see larm's README.");
  VG_(details_bug_reports_to)("larm's issue tracker");
  VG_(details_avg_translation_sizeB)(300);
  VG_(basic_tool_funcs)(post_clo_init, instrument, fini);
  VG_(needs_command_line_options)(process_option, print_usage, print_debug_usage);
  VG_(needs_client_requests)(handle_request);
  VG_(track_start_client_code)(on_start_client_code);
  VG_(track_pre_thread_ll_create)(on_thread_create);
}

VG_DETERMINE_INTERFACE_VERSION(pre_clo_init)
