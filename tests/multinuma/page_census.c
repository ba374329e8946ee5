/* page_census: allocates PAGES pages (default 4096), touches them in order, and prints how many
   of them each NUMA node holds, as move_pages answers for each page ("node N: COUNT" lines,
   "not placed: COUNT" for pages it could not place). The test of larm run's weighted interleave
   compares these counts with the weights. */
#include <numaif.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_NODES 64

int main(int argc, char** argv) {
  const long pages = argc > 1 ? atol(argv[1]) : 4096;
  const long page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pages > (1L << 24)) {
    fprintf(stderr, "page_census: PAGES must lie in [1, 2^24]\n");
    return 2;
  }
  /* No transparent huge page: one 2 MiB page would land on one node whole. */
  char* data = mmap(NULL, (size_t)(pages * page), PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (data == MAP_FAILED) {
    perror("page_census: mmap");
    return 1;
  }
  madvise(data, (size_t)(pages * page), MADV_NOHUGEPAGE);
  for (long i = 0; i < pages; ++i) data[i * page] = (char)i;
  void** addresses = malloc(sizeof(void*) * (size_t)pages);
  int* status = malloc(sizeof(int) * (size_t)pages);
  if (addresses == NULL || status == NULL) return 1;
  for (long i = 0; i < pages; ++i) addresses[i] = data + i * page;
  if (move_pages(0, (unsigned long)pages, addresses, NULL, status, 0) != 0) {
    perror("page_census: move_pages");
    return 1;
  }
  long per_node[MAX_NODES] = {0}, unplaced = 0;
  for (long i = 0; i < pages; ++i) {
    if (status[i] >= 0 && status[i] < MAX_NODES) {
      ++per_node[status[i]];
    } else {
      ++unplaced;
    }
  }
  for (int n = 0; n < MAX_NODES; ++n) {
    if (per_node[n] > 0) printf("node %d: %ld\n", n, per_node[n]);
  }
  if (unplaced > 0) printf("not placed: %ld\n", unplaced);
  free(status);
  free(addresses);
  munmap(data, (size_t)(pages * page));
  return 0;
}
