/* fork() while another thread performs liblarm's lazy first initialisation must not hang the
 * child (issue 16: with the fork handlers registered at the end of that initialisation, 3 runs of
 * 6 hung). Each round is a fresh process, so that the initialisation is the first: a thread's
 * first larm_region_begin initialises from LARM_OUT while the main thread forks; the forked child
 * records a region and exits. A round that has not ended after 10 s is a hang: exit 1. */
#define _GNU_SOURCE
#include <larm/region.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int first_use_done;

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

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? atoi(argv[1]) : 50;
  char dir[] = "/tmp/larm-fork-XXXXXX";
  if (mkdtemp(dir) == NULL) return 2;
  setenv("LARM_OUT", dir, 1);
  setenv("LARM_COUNTERS", "off", 1);
  for (int r = 0; r < rounds; ++r) {
    const pid_t round = fork();
    if (round == 0) {
      alarm(10); /* a hung round dies of SIGALRM */
      _exit(round_in_child());
    }
    int status = 0;
    if (round < 0 || waitpid(round, &status, 0) != round) return 2;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      fprintf(stderr, "round %d of %d: %s %d\n", r + 1, rounds,
              WIFSIGNALED(status) ? "hung or crashed, signal" : "failed, status",
              WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
      return 1;
    }
  }
  printf("%d rounds of fork during the first initialisation: none hung\n", rounds);
  char command[64];
  snprintf(command, sizeof command, "rm -rf %s", dir); /* our mkdtemp name: no quoting needed */
  return system(command) == 0 ? 0 : 2;
}
