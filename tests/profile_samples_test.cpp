// larm profile's pairing of perf's samples with the Valgrind tool's counts, and its time per
// function: names as the toolchain writes them (mangled C++, clones, OpenMP outlined bodies) and
// the OpenMP runtime's waits and the time off the CPU given to the function that waits.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "application/function_profile.h"
#include "application/perf_samples.h"
#include "application/symbol_names.h"
#include "results/printable_text.h"

namespace larm::application {
namespace {

TEST(SymbolNames, FoldsClonesOfMangledAndDemangledNames) {
  EXPECT_EQ(fold_function_name("_Z4ddotiPKdS0_PdRd._omp_fn.1"), "_Z4ddotiPKdS0_PdRd");
  EXPECT_EQ(fold_function_name("_Z5HPCCGP24HPC_Sparse_Matrix_STRUCTPKdPdidRiRdS3_.cold"),
            "_Z5HPCCGP24HPC_Sparse_Matrix_STRUCTPKdPdidRiRdS3_");
  EXPECT_EQ(fold_function_name("_ZL6kernelv.constprop.0.isra.0"), "_ZL6kernelv");
  EXPECT_EQ(fold_function_name("f(int) [clone .constprop.0]"), "f(int)");
  EXPECT_EQ(fold_function_name("resid._omp_fn.0"), "resid");
  EXPECT_EQ(fold_function_name("helper.lto_priv.0"), "helper");
  EXPECT_EQ(fold_function_name("memcpy@@GLIBC_2.14"), "memcpy");
  EXPECT_EQ(fold_function_name("__memset_avx2_unaligned_erms"), "__memset");
  // A leading dot is a name, not a suffix.
  EXPECT_EQ(fold_function_name(".cold"), ".cold");
}

TEST(SymbolNames, ShortNamesDropParametersAndTemplateReturnTypes) {
  // HPCCG, miniFE and HPCG as GCC 12 mangles them.
  EXPECT_EQ(short_function_name("_Z12HPC_sparsemvP24HPC_Sparse_Matrix_STRUCTPKdPd"),
            "HPC_sparsemv");
  EXPECT_EQ(demangled_name("_Z12HPC_sparsemvP24HPC_Sparse_Matrix_STRUCTPKdPd"),
            "HPC_sparsemv(HPC_Sparse_Matrix_STRUCT*, double const*, double*)");
  EXPECT_EQ(short_function_name("_ZN6miniFE6daxpbyINS_6VectorIdiiEEEEvdRKT_dRS3_"),
            "miniFE::daxpby<miniFE::Vector<double, int, int> >");
  // A return type that is itself a template's member.
  EXPECT_EQ(
      short_function_name("_ZN6miniFE3dotINS_6VectorIdiiEEEENS_10TypeTraitsINT_10ScalarTypeEE14"
                          "magnitude_typeERKS4_S9_"),
      "miniFE::dot<miniFE::Vector<double, int, int> >");
  EXPECT_EQ(short_function_name("_Z11ComputeSPMVRK19SparseMatrix_STRUCTR13Vector_STRUCTS3_"),
            "ComputeSPMV");
  // A member operator() keeps its own parentheses.
  EXPECT_EQ(short_function_name("_ZN6miniFE10matvec_stdINS_9CSRMatrixIdiiEENS_6VectorIdiiEEEclERS2_"
                                "RS4_S7_"),
            "miniFE::matvec_std<miniFE::CSRMatrix<double, int, int>, miniFE::Vector<double, int, "
            "int> >::operator()");
  // Fortran's module procedures as module::name; C names, and what is not a mangled name, are
  // left as they are.
  EXPECT_EQ(short_function_name("resid"), "resid");
  EXPECT_EQ(short_function_name("__advec_cell_kernel_module_MOD_advec_cell_kernel"),
            "advec_cell_kernel_module::advec_cell_kernel");
  EXPECT_EQ(short_function_name("__memset"), "__memset");
  EXPECT_EQ(short_function_name("__x_MOD_"), "__x_MOD_");
  EXPECT_EQ(short_function_name("_Znot a name"), "_Znot a name");
}

// The runtime and a program, as perf names their objects.
const std::string kGomp = "/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0";
const std::string kApp = "/tmp/app";

// Lines as `perf script -F pid,tid,cpu,time,period,ip,sym,dso --show-switch-events` writes them.
std::string sampled_line(long pid, long tid, double time, const std::string& symbol,
                         const std::string& object) {
  std::ostringstream line;
  line << "  " << pid << "/" << tid << "  [001]  " << std::fixed << time << ":     1000000      "
       << "55d0c0de " << symbol << " (" << object << ")\n";
  return line.str();
}
std::string switch_line(long pid, long tid, double time, const char* direction) {
  std::ostringstream line;
  line << "  " << pid << "/" << tid << "  [000]  " << std::fixed << time << ": PERF_RECORD_SWITCH "
       << direction << "\n";
  return line.str();
}

TEST(PerfScript, RuntimeWaitsAndTimeOffTheCpuGoToTheFunctionThatWaits) {
  const std::string spmv = "_Z12HPC_sparsemvP24HPC_Sparse_Matrix_STRUCTPKdPd";
  std::string text;
  // The master (pid == tid) runs its share of the outlined body, then waits in the runtime for
  // 3 samples and 5 ms asleep; the worker runs its share and spins idle.
  text += sampled_line(100, 100, 1.000, spmv + "._omp_fn.0", kApp);
  text += sampled_line(100, 101, 1.000, spmv + "._omp_fn.0", kApp);
  text += sampled_line(100, 100, 1.001, spmv, kApp);
  text += sampled_line(100, 101, 1.001, spmv + "._omp_fn.0", kApp);
  text += sampled_line(100, 100, 1.002, "[unknown]", kGomp);
  text += sampled_line(100, 101, 1.002, spmv + "._omp_fn.0", kApp);
  // The worker is preempted in its share: the function's time.
  text += switch_line(100, 101, 1.0025, "OUT preempt");
  text += switch_line(100, 101, 1.0027, "IN");
  text += sampled_line(100, 100, 1.003, "GOMP_parallel", kGomp);
  text += sampled_line(100, 101, 1.003, "[unknown]", kGomp);
  text += switch_line(100, 100, 1.0035, "OUT");  // asleep in the barrier: of its own accord
  text += switch_line(100, 100, 1.0085, "IN");
  text += sampled_line(100, 100, 1.009, "[unknown]", kGomp);
  // Then it sleeps in the runtime: its own wait, not the function's.
  text += switch_line(100, 101, 1.004, "OUT");
  text += switch_line(100, 101, 1.010, "IN");
  text += sampled_line(100, 101, 1.010, "[unknown]", kGomp);
  // The kernel's samples are the kernel's, and do not end the master's function.
  text += sampled_line(100, 100, 1.010, "clear_page_erms", "[kernel.kallsyms]");
  text += sampled_line(100, 100, 1.011, "[unknown]", kGomp);
  std::istringstream in(text);
  SampledRun run;
  read_perf_script(in, run);

  const FunctionKey key{"app", spmv};
  ASSERT_EQ(run.functions.count(key), 1u);
  const ThreadSamples& master = run.functions.at(key).at(100);
  const ThreadSamples& worker = run.functions.at(key).at(101);
  EXPECT_NEAR(master.own, 0.002, 1e-12);
  EXPECT_NEAR(master.waits, 0.004, 1e-12);
  EXPECT_NEAR(master.off_cpu, 0.005, 1e-9);
  EXPECT_NEAR(worker.own, 0.003, 1e-12);
  EXPECT_EQ(worker.waits, 0);
  EXPECT_NEAR(worker.off_cpu, 0.0002, 1e-9);
  // The kernel's sample in the master's wait is the function's time too.
  EXPECT_NEAR(master.kernel, 0.001, 1e-12);
  // The master's wall time in the function is what the code's own timer around the call sees.
  EXPECT_NEAR(master.wall(), 0.012, 1e-9);
  EXPECT_NEAR(run.program_seconds, 0.011, 1e-9);

  const FunctionKey idle{"libgomp.so.1.0.0", kRuntimeIdle};
  ASSERT_EQ(run.functions.count(idle), 1u);
  EXPECT_NEAR(run.functions.at(idle).at(101).own, 0.002, 1e-12);
  EXPECT_EQ(run.functions.at(idle).count(100), 0u);
  EXPECT_NEAR(run.functions.at({"[kernel]", "[kernel]"}).at(100).own, 0.001, 1e-12);
  EXPECT_NEAR(run.sampled_seconds, 0.012, 1e-12);
}

TEST(PerfScript, TheMastersWaitIsTheFunctionItsTeamWorksIn) {
  // A short call: the master's share of lopsided's body is never sampled; it waits in the runtime
  // at the region's end while the worker's samples show the team in lopsided.
  const std::string lopsided = "_ZN7kernels8lopsidedERSt6vectorIdSaIdEE";
  std::string text;
  text += sampled_line(5, 5, 1.000, "_ZN7kernels3sumERKSt6vectorIfSaIfEE._omp_fn.0", kApp);
  text += sampled_line(5, 6, 1.001, lopsided + "._omp_fn.0", kApp);
  text += sampled_line(5, 5, 1.001, "[unknown]", kGomp);
  text += switch_line(5, 5, 1.0015, "OUT");
  text += sampled_line(5, 6, 1.002, lopsided + "._omp_fn.0", kApp);
  text += switch_line(5, 5, 1.0031, "IN");
  std::istringstream in(text);
  SampledRun run;
  read_perf_script(in, run);
  const ThreadSamples& master = run.functions.at({"app", lopsided}).at(5);
  EXPECT_NEAR(master.waits, 0.001, 1e-12);
  EXPECT_NEAR(master.off_cpu, 0.0016, 1e-9);
  EXPECT_NEAR(run.functions.at({"app", "_ZN7kernels3sumERKSt6vectorIfSaIfEE"}).at(5).wall(), 0.001,
              1e-12);
}

TEST(PerfScript, CallChainsGiveTheRuntimesTimeToItsCaller) {
  // As `perf record --call-graph dwarf` samples are printed: a header, frames innermost first.
  const std::string text =
      "  9/9  [000]  5.000000:    1000000 \n"
      "\t           1f622 [unknown] (/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0)\n"
      "\t           140b0 GOMP_parallel (/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0)\n"
      "\t            18c5 _ZN7kernels4axpyIdEEvT_RKSt6vectorIS1_SaIS1_EERS4_ (/tmp/app)\n"
      "\t            1267 main (/tmp/app)\n"
      "\n"
      // The worker, idle: its stack leads only to the thread's start.
      "  9/10  [001]  5.000100:    1000000 \n"
      "\t           1f135 [unknown] (/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0)\n"
      "\t            b841 [unknown] (/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0)\n"
      "\t           89134 start_thread (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
      "\t          1097dc clone3 (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
      "\n"
      // The master in the kernel, from the runtime's wait in the same function.
      "  9/9  [000]  5.001000:    1000000 \n"
      "\tffffffff8225f759 futex_wait ([kernel.kallsyms])\n"
      "\t           1f622 [unknown] (/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0)\n"
      "\t            18c5 _ZN7kernels4axpyIdEEvT_RKSt6vectorIS1_SaIS1_EERS4_ (/tmp/app)\n"
      "\n";
  std::istringstream in(text);
  SampledRun run;
  read_perf_script(in, run);
  const ThreadSamples& master =
      run.functions.at({"app", "_ZN7kernels4axpyIdEEvT_RKSt6vectorIS1_SaIS1_EERS4_"}).at(9);
  EXPECT_NEAR(master.waits, 0.001, 1e-12);
  EXPECT_NEAR(master.kernel, 0.001, 1e-12);
  EXPECT_EQ(master.own, 0);
  EXPECT_NEAR(run.functions.at({"libgomp.so.1.0.0", kRuntimeIdle}).at(10).own, 0.001, 1e-12);
  EXPECT_EQ(run.functions.count({"libc.so.6", "start_thread"}), 0u);
  EXPECT_NEAR(run.sampled_seconds, 0.003, 1e-12);
}

TEST(PerfScript, AnInlinedParallelRegionKeepsItsFunctionsTime) {
  // miniFE: daxpby inlined into cg_solve, its outlined body still named for daxpby; the master
  // waits in GOMP_parallel called from cg_solve.
  const std::string text =
      "  9/10  [001]  5.000000:    1000000 \n"
      "\t            5950 _ZN6miniFE6daxpbyINS_6VectorIdiiEEEEvdRKT_dRS3_._omp_fn.0 (/tmp/app)\n"
      "\t            b841 [unknown] (/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0)\n"
      "\n"
      "  9/9  [000]  5.000100:    1000000 \n"
      "\t           1f622 [unknown] (/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0)\n"
      "\t           140b0 GOMP_parallel (/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0)\n"
      "\t            af10 _ZN6miniFE8cg_solveIiEEvRT_ (/tmp/app)\n"
      "\n";
  std::istringstream in(text);
  SampledRun run;
  read_perf_script(in, run);
  EXPECT_NEAR(
      run.functions.at({"app", "_ZN6miniFE6daxpbyINS_6VectorIdiiEEEEvdRKT_dRS3_"}).at(9).waits,
      0.001, 1e-12);
  EXPECT_EQ(run.functions.count({"app", "_ZN6miniFE8cg_solveIiEEvRT_"}), 0u);
}

TEST(PerfScript, ARuntimeSampleBeforeAnyFunctionIsTheIdleTeams) {
  std::istringstream in(sampled_line(7, 7, 2.0, "[unknown]", "/usr/lib/libomp.so.5"));
  SampledRun run;
  read_perf_script(in, run);
  EXPECT_NEAR(run.functions.at({"libomp.so.5", kRuntimeIdle}).at(7).own, 0.001, 1e-12);
}

// Names as binaries hold them are any bytes: a Latin-1 symbol, one cut at 255 bytes inside a
// UTF-8 character. They are made valid where they enter (perf's samples, the tool's counts), so
// that both still meet and the regions' JSON can be written.
TEST(PerfScript, NamesFromBinariesAreMadeValidUtf8WhereTheyEnter) {
  const std::string latin1 = "caf\xe9_kernel";             // "café" in Latin-1
  const std::string cut = std::string(254, 'a') + "\xc3";  // "é" cut after its first byte
  const std::string object = "/tmp/app\xff";
  std::string text;
  for (int k = 0; k < 60; ++k) {
    text += sampled_line(9, 9, 1.0 + 0.001 * k, k % 2 ? latin1 : cut, object);
  }
  std::istringstream in(text);
  SampledRun run;
  run.frequency = 1000;  // the lines' period: 1 ms
  read_perf_script(in, run);
  ASSERT_EQ(run.functions.size(), 2u);
  for (const auto& [key, threads] : run.functions) {
    EXPECT_TRUE(results::is_printable(key.first)) << key.first;
    EXPECT_TRUE(results::is_printable(key.second)) << key.second;
  }

  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("larm-functions-" + std::to_string(::getpid()));
  {
    std::ofstream out(file);
    out << "larmcount-functions\t3\t0\ncounts\tinstructions\tflops_add\tbytes_loaded\n"
        << "f\t0\t" << object << "\t" << latin1 << "\nf\t1\t" << object << "\t" << cut << "\n"
        << "c\t1\t0\t100\t10\t80\nc\t1\t1\t100\t20\t160\n";
  }
  const FunctionCounts counts = read_function_counts({file});
  std::filesystem::remove(file);
  ASSERT_EQ(counts.functions.size(), 2u);
  for (const auto& [key, counted] : counts.functions) {
    EXPECT_EQ(run.functions.count(key), 1u) << key.second;  // perf's name and the tool's meet
  }
  const Profile profile = build_profile({run}, {true}, counts, FunctionCounter::valgrind,
                                        object_key("/tmp/app\xff"), 10, 0);
  ASSERT_EQ(profile.file.regions.size(), 2u);
  for (const regions::Region& region : profile.file.regions) {
    EXPECT_LE(region.name.size(), 255u);
    EXPECT_TRUE(results::is_printable(region.name)) << region.name;
  }
  EXPECT_NO_THROW(regions::to_json(profile.file).dump());
}

TEST(PrintableText, CutToBytesNeverSplitsACharacter) {
  EXPECT_EQ(results::cut_to_bytes("abc", 5), "abc");
  EXPECT_EQ(results::cut_to_bytes("ab\xc3\xa9", 3), "ab");  // é is two bytes
  EXPECT_EQ(results::cut_to_bytes("ab\xc3\xa9", 4), "ab\xc3\xa9");
  EXPECT_EQ(results::cut_to_bytes("\xe2\x82\xac\xe2\x82\xac", 5), "\xe2\x82\xac");  // €
}

}  // namespace
}  // namespace larm::application
