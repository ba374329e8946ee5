"""The region client both install tests build against an installed larm (a prefix, or the system
through the Debian package): a C program that records one region and samples the default
monitors once (larm/monitor.h), and its CMake project."""
import os

PROGRAM = r"""
#include <larm/monitor.h>
#include <larm/region.h>
#include <stdio.h>
int main(void) {
  static double a[100000];
  if (larm_monitor_init(NULL, NULL) != 0 || larm_monitor_update() != 0) return 1;
  larm_region_begin("scale");
  for (int i = 0; i < 100000; ++i) a[i] = 2.0 * a[i] + 1.0;
  larm_region_add_rw("scale", 2e5, 8e5, 8e5);
  larm_region_end("scale");
  printf("%g\n", a[7]);
  if (larm_monitor_finalize() != 0) return 1;
  return larm_finalize() == 0 ? 0 : 1;
}
"""
# find_package(larm): the shared library always, larm::larm_static where the test asks for it.
CMAKE_PROJECT = """cmake_minimum_required(VERSION 3.16)
project(uses_larm C)
find_package(larm 0.1 REQUIRED)
add_executable(uses_larm main.c)
target_link_libraries(uses_larm PRIVATE larm::larm)
"""
CMAKE_STATIC = """add_executable(uses_larm_static main.c)
target_link_libraries(uses_larm_static PRIVATE larm::larm_static)
"""


def write_client(directory, static=False):
    """Writes main.c and CMakeLists.txt into directory (created)."""
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "main.c"), "w") as f:
        f.write(PROGRAM)
    with open(os.path.join(directory, "CMakeLists.txt"), "w") as f:
        f.write(CMAKE_PROJECT + (CMAKE_STATIC if static else ""))
