/* larm monitor's acceptance in the three-node guest: 32 MiB of pages first touched on node 0, then
 * moved to node 1, then to node 2, one second apart (move_pages). For each placement it prints the
 * CLOCK_MONOTONIC time the move completed and how many of its pages move_pages then finds on that
 * node (the ground truth the monitor's trace is checked against):
 *   moved to node N at T s: K of P pages there
 */
#define _GNU_SOURCE
#include <numaif.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

enum { kPages = 8192 };

static double monotonic(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(void) {
  const long page = sysconf(_SC_PAGESIZE);
  char* data = mmap(NULL, (size_t)(kPages * page), PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (data == MAP_FAILED) return 1;
  madvise(data, (size_t)(kPages * page), MADV_NOHUGEPAGE);
  static void* pages[kPages];
  static int nodes[kPages], status[kPages];
  unsigned long node0 = 1;
  if (mbind(data, (size_t)(kPages * page), MPOL_BIND, &node0, 8, 0) != 0) perror("mbind");
  for (int i = 0; i < kPages; ++i) {
    pages[i] = data + (long)i * page;
    data[(long)i * page] = 1;
  }
  /* Back to the default policy: move_pages decides where the pages go from here. */
  if (mbind(data, (size_t)(kPages * page), MPOL_DEFAULT, NULL, 0, 0) != 0) perror("mbind");
  for (int target = 0; target < 3; ++target) {
    if (target > 0) {
      for (int i = 0; i < kPages; ++i) nodes[i] = target;
      if (move_pages(0, kPages, pages, nodes, status, MPOL_MF_MOVE) < 0) perror("move_pages");
    }
    const double done = monotonic();
    if (move_pages(0, kPages, pages, NULL, status, 0) < 0) perror("move_pages (query)");
    int there = 0;
    for (int i = 0; i < kPages; ++i) there += status[i] == target;
    printf("moved to node %d at %.6f s: %d of %d pages there\n", target, done, there, kPages);
    fflush(stdout);
    sleep(1);
  }
  return 0;
}
