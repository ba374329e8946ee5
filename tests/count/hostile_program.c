/* A program that works against larm count, for count_hostile_test.py. One region "work" of a
 * small loop, then what its argument asks:
 *   plant DIR VICTIM  links DIR/runs.json, DIR/counted/totals.json and DIR/timed/regions.json's
 *                     neighbours to VICTIM (files larm or its tool write after the program ran);
 *   swap DIR VICTIMDIR  replaces DIR/timed with a link to VICTIMDIR;
 *   swapdir DIR SUB VICTIMDIR  replaces DIR/SUB with a link to VICTIMDIR (once: a second run
 *                     finds the link there and leaves it);
 *   linger FILE       forks a child that outlives the program and writes FILE 3 s later;
 *   badpointer        sends larm's Valgrind tool a read request with an address it cannot write;
 *   huge              declares FLOPs and bytes beyond 1e18 and a sum that would pass it;
 *   escape            names a region with an escape sequence and invalid UTF-8;
 *   nap SECONDS       sleeps that long once its regions are written (a run to interrupt).
 * It exits 0 whatever happened. */
#include <larm/region.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <valgrind/valgrind.h>

/* count_protocol.h's read request: (VG_USERREQ_TOOL_BASE('L','C') + 1). */
#define READ_REQUEST (VG_USERREQ_TOOL_BASE('L', 'C') + 1)

static void plant(const char* target, const char* link_path) {
  unlink(link_path);
  if (symlink(target, link_path) != 0) perror(link_path);
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  larm_init(NULL);
  static double a[4096];
  larm_region_begin("work");
  for (int r = 0; r < 100; ++r)
    for (int i = 0; i < 4096; ++i) a[i] = a[i] * 0.5 + 1.0;
  larm_region_end("work");
  if (strcmp(mode, "huge") == 0) {
    int refused = larm_region_add("work", 1e300, 8);
    printf("1e300: %d\n", refused);
    refused = larm_region_add("work", 1, 1e19);
    printf("1e19 bytes: %d\n", refused);
    const int first = larm_region_add("work", 9e17, 0);
    const int second = larm_region_add("work", 9e17, 0);
    printf("9e17 twice: %d %d\n", first, second);
  } else if (strcmp(mode, "escape") == 0) {
    larm_region_begin("esc\033[31mred\xff\xfe");
    a[0] += 1;
    larm_region_end("esc\033[31mred\xff\xfe");
  }
  /* What follows is done once liblarm wrote its files: what is then written is larm's. */
  larm_finalize();
  char path[4096];
  if (strcmp(mode, "plant") == 0 && argc > 3) {
    snprintf(path, sizeof path, "%s/runs.json", argv[2]);
    plant(argv[3], path);
    snprintf(path, sizeof path, "%s/counted/totals.json", argv[2]);
    plant(argv[3], path);
    snprintf(path, sizeof path, "%s/timed/regions.json", argv[2]);
    /* the merge of the native runs goes there: a link in its place */
    plant(argv[3], path);
  } else if (strcmp(mode, "swap") == 0 && argc > 3) {
    snprintf(path, sizeof path, "%s/timed", argv[2]);
    char aside[4200];
    snprintf(aside, sizeof aside, "%s/timed-aside", argv[2]);
    rename(path, aside);
    plant(argv[3], path);
  } else if (strcmp(mode, "swapdir") == 0 && argc > 4) {
    struct stat info;
    snprintf(path, sizeof path, "%s/%s", argv[2], argv[3]);
    if (lstat(path, &info) == 0 && S_ISDIR(info.st_mode)) {
      char aside[4200];
      snprintf(aside, sizeof aside, "%s/%s-aside", argv[2], argv[3]);
      rename(path, aside);
      plant(argv[4], path);
    }
  } else if (strcmp(mode, "linger") == 0 && argc > 2) {
    if (fork() == 0) {
      setsid();
      sleep(3);
      FILE* late = fopen(argv[2], "w");
      if (late) {
        fputs("written after the program ended\n", late);
        fclose(late);
      }
      _exit(0);
    }
  } else if (strcmp(mode, "nap") == 0 && argc > 2) {
    usleep((useconds_t)(atof(argv[2]) * 1e6));
  } else if (strcmp(mode, "badpointer") == 0) {
    unsigned long answer = VALGRIND_DO_CLIENT_REQUEST_EXPR(0, READ_REQUEST, 16, 21, 0, 0, 0);
    printf("bad pointer request answered %lu\n", answer);
  }
  printf("%g\n", a[7]);
  return 0;
}
