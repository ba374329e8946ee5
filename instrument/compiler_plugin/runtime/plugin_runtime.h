/* What the files of larm_plugin_runtime.so share. */
#ifndef LARM_PLUGIN_RUNTIME_H
#define LARM_PLUGIN_RUNTIME_H

/* Prints "larm_plugin_runtime: " and a line on stderr. */
#define LARM_RUNTIME_SAY(...)               \
  do {                                      \
    fputs("larm_plugin_runtime: ", stderr); \
    fprintf(stderr, __VA_ARGS__);           \
    fputc('\n', stderr);                    \
  } while (0)

#endif /* LARM_PLUGIN_RUNTIME_H */
