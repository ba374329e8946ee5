/* Without LARM_ENABLE the LARM_* macros compile to nothing: this program is not linked with
 * liblarm, so any call left behind would fail to link. */
#include <larm/region.h>
#include <stdio.h>

int main(void) {
  double x = 0.0;
  LARM_INIT(NULL);
  LARM_THREAD_INIT();
  LARM_REGION_BEGIN("loop");
  for (int i = 0; i < 10; ++i) x += i;
  LARM_REGION_ADD("loop", 10.0, 0.0);
  LARM_REGION_DATA("loop", &x, sizeof x);
  LARM_REGION_END("loop");
  LARM_FINALIZE();
  printf("%g\n", x);
  return x == 45.0 ? 0 : 1;
}
