/* fork() while another thread performs liblarm's lazy first initialisation must not hang the
 * child (with the fork handlers registered at the end of that initialisation, 3 runs of
 * 6 hung). Each round is a fresh process, so that the initialisation is the first: a thread's
 * first larm_region_begin initialises from LARM_OUT while the main thread forks; the forked child
 * records a region and exits. A round that has not ended after ROUND_SECONDS (10 by default) is a
 * hang: its whole process group is killed, and the program exits 1 at once.
 *
 * Not run under AddressSanitizer: neither GCC 12's libasan nor clang 14's runtime locks
 * its allocator around fork(), so a child forked while the other thread is inside malloc inherits
 * a held allocator lock and hangs in its first allocation (GCC: 3 runs of 6 hung, in
 * __sanitizer::Mutex::Lock under SizeClassAllocator64::GetFromAllocator; clang 14: 6 runs of 6,
 * the skip below removed). That is the sanitizer's hang, which this test cannot tell from
 * liblarm's, so built with ASan it exits 77 (ctest: skipped) and says why; scripts/test.sh runs
 * it in its Release stage, against the liblarm users link (10 runs of 50 rounds: none hung).
 *
 *   fork_during_init_program [ROUNDS [ROUND_SECONDS]] [--simulate-hang]
 *
 * --simulate-hang makes every forked child hang as libasan's did (the round waits for it), so
 * that a test can check that a hung round fails within ROUND_SECONDS and leaves no process
 * behind to hold the test runner's output pipe open. */
#define _GNU_SOURCE
#include <errno.h>
#include <larm/region.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "address_sanitizer.h"

static volatile int first_use_done;
static int simulate_hang;

static void* first_use(void* unused) {
  (void)unused;
  larm_region_begin("first");
  larm_region_end("first");
  __atomic_store_n(&first_use_done, 1, __ATOMIC_RELEASE);
  return NULL;
}

/* One round: its own process, its own first initialisation, and forks one after the other until
 * that initialisation (which loads the topology: milliseconds) is over, so that some land in it.
 * 0 when every forked child ended. */
static int round_in_child(void) {
  pthread_t thread;
  if (pthread_create(&thread, NULL, first_use, NULL) != 0) return 2;
  int forks = 0;
  do {
    const pid_t child = fork();
    if (child == 0) {
      if (simulate_hang) pause(); /* as a child stuck on an inherited lock */
      larm_region_begin("in-child");
      larm_region_end("in-child");
      _exit(0);
    }
    int status = 0;
    if (child < 0 || waitpid(child, &status, 0) != child) return 2;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 3;
    ++forks;
  } while (!__atomic_load_n(&first_use_done, __ATOMIC_ACQUIRE) && forks < 10000);
  pthread_join(thread, NULL);
  larm_finalize();
  return 0;
}

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Kills what is left of a round's process group and reaps it: the children the round forked are
 * re-parented to this process (their subreaper) when the round dies, so none is left behind. */
static void kill_round_group(pid_t round) {
  kill(-round, SIGKILL);
  while (waitpid(-round, NULL, 0) > 0 || errno == EINTR) {
  }
}

/* Waits for the round (the leader of its own process group) until the deadline; a round still
 * running then is killed with its whole group. 1 and *status when it ended, 0 when it hung, -1 on
 * a wait error. */
static int wait_round(pid_t round, double seconds, int* status) {
  const double deadline = now_seconds() + seconds;
  for (;;) {
    const pid_t done = waitpid(round, status, WNOHANG);
    if (done == round) break;
    if (done < 0) return -1;
    if (now_seconds() > deadline) {
      kill_round_group(round);
      return 0;
    }
    const struct timespec pause_for = {0, 5 * 1000 * 1000};
    nanosleep(&pause_for, NULL);
  }
  /* A round that succeeded waited for each of its children; one that failed may have left some. */
  if (!WIFEXITED(*status) || WEXITSTATUS(*status) != 0) kill_round_group(round);
  return 1;
}

int main(int argc, char** argv) {
  int rounds = 50;
  double round_seconds = 10;
  int positional = 0;
  for (int a = 1; a < argc; ++a) {
    if (strcmp(argv[a], "--simulate-hang") == 0) {
      simulate_hang = 1;
    } else if (positional == 0) {
      rounds = atoi(argv[a]);
      ++positional;
    } else if (positional == 1) {
      round_seconds = atof(argv[a]);
      ++positional;
    } else {
      fprintf(stderr, "usage: %s [ROUNDS [ROUND_SECONDS]] [--simulate-hang]\n", argv[0]);
      return 2;
    }
  }
  if (rounds < 1 || !(round_seconds > 0)) {
    fprintf(stderr, "ROUNDS must be at least 1 and ROUND_SECONDS above 0\n");
    return 2;
  }
#ifdef UNDER_ADDRESS_SANITIZER
  if (!simulate_hang) {
    printf(
        "skipped: built with AddressSanitizer, whose allocator (GCC 12's, clang 14's) takes no "
        "lock around fork(): a child can hang on the lock it inherits, which this test cannot "
        "tell from a liblarm deadlock; scripts/test.sh runs it in the Release stage\n");
    return 77;
  }
#endif
  /* Children of a killed round are re-parented here, not to init, and reaped by wait_round. */
  if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) return 2;
  char dir[] = "/tmp/larm-fork-XXXXXX";
  if (mkdtemp(dir) == NULL) return 2;
  setenv("LARM_OUT", dir, 1);
  setenv("LARM_COUNTERS", "off", 1);
  int result = 0;
  for (int r = 0; r < rounds && result == 0; ++r) {
    const pid_t round = fork();
    if (round == 0) {
      setpgid(0, 0);
      _exit(round_in_child());
    }
    if (round < 0) {
      result = 2;
      break;
    }
    setpgid(round, round); /* both sides: the group exists before either goes on */
    int status = 0;
    const int ended = wait_round(round, round_seconds, &status);
    if (ended < 0) {
      result = 2;
    } else if (ended == 0) {
      fprintf(stderr, "round %d of %d: hung for %g s; its process group killed, no process left\n",
              r + 1, rounds, round_seconds);
      result = 1;
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      fprintf(stderr, "round %d of %d: %s %d\n", r + 1, rounds,
              WIFSIGNALED(status) ? "crashed, signal" : "failed, status",
              WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
      result = 1;
    }
  }
  if (result == 0) printf("%d rounds of fork during the first initialisation: none hung\n", rounds);
  char command[64];
  snprintf(command, sizeof command, "rm -rf %s", dir); /* our mkdtemp name: no quoting needed */
  if (system(command) != 0 && result == 0) result = 2;
  return result;
}
