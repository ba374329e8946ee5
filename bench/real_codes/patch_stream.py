"""Regions of liblarm in STREAM (stream.c, McCalpin's): each of the four timed kernels' `#pragma omp
parallel for` becomes `omp parallel` + larm_region_begin + `omp for` + end, so that every thread
records its share; the regions are named copy, scale, add and triad. Their FLOPs are known: 0, 1,
1 and 2 per element and repetition; their bytes 16, 16, 24 and 24.

  python3 patch_stream.py stream.c"""
import re
import sys

path = sys.argv[1]
text = open(path).read()
if "#include <larm/region.h>" not in text:
    text = "#include <larm/region.h>\n" + text
kernel = re.compile(r"#pragma omp parallel for\n(\s*for \(j=0; j<STREAM_ARRAY_SIZE; j\+\+\)\n"
                    r"\s*(c\[j\] = a\[j\]|b\[j\] = scalar\*c\[j\]|c\[j\] = a\[j\]\+b\[j\]|"
                    r"a\[j\] = b\[j\]\+scalar\*c\[j\]);\n)")
names = iter(["copy", "scale", "add", "triad"])
main_end = text.index("--- SUMMARY ---")  # the tuned copies after it are left alone


def region(match):
    name = next(names)
    return ("#pragma omp parallel\n\t{\n\tlarm_region_begin(\"" + name + "\");\n#pragma omp for\n" +
            match.group(1) + "\tlarm_region_end(\"" + name + "\");\n\t}\n")


head, tail = text[:main_end], text[main_end:]
head, count = kernel.subn(region, head)
if count != 4:
    sys.exit(f"patch_stream.py: {count} of the 4 timed kernels found")
open(path, "w").write(head + tail)
