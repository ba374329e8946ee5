# STREAM kernels against the hybrid model, GB/s per thread
# Written by larm plot; rerun with: gnuplot hybrid-validation.gp (formats: edit the list below).
formats = "svg"
if (!exists("larm_partial")) larm_partial = ""
do for [fmt in formats] {
  if (fmt eq "png") { set terminal pngcairo enhanced size 1400,1180 font "Sans,19.5" linewidth 2.5; base = 19.5 }
  if (fmt eq "svg") { set terminal svg enhanced size 700,590 font "Sans,13" linewidth 1.2 background "white"; base = 13 }
  if (fmt eq "pdf") { set terminal pdfcairo enhanced size 7in,5.9in font "Sans,8" linewidth 1.5; base = 8 }
  set output 'hybrid-validation.'.fmt.larm_partial
  reset
  small = sprintf(",%g", base * 0.8)
  tiny = sprintf(",%g", base * 0.75)
  set multiplot layout 2,3 margins 0.1,0.98,0.1,0.9 spacing 0.07,0.24
  set xrange [0:1]
  set xtics 0.5
  set mxtics 5
  set grid lc rgb "#dddddd"
  set xlabel 'ratio\_fast'
  set yrange [0:14.8813]
  set title 'add'."\n".'ratio\_read 0.67, MARE 5.0 %' font small
  set ylabel 'GB/s per thread'
  set key at screen 0.680000, screen 0.425000 left top Left reverse font small samplen 2
  plot \
    3.75 with lines dt 2 lc rgb "#0072B2" title 'read, slow (DRAM) alone', \
    2.5 with lines dt 3 lc rgb "#0072B2" title 'write, slow (DRAM) alone', \
    11.875 with lines dt 2 lc rgb "#D55E00" title 'read, fast (HBM) alone', \
    7.5 with lines dt 3 lc rgb "#D55E00" title 'write, fast (HBM) alone', \
    "hybrid-validation.dat" index 1 using 1:3 with lines lc rgb "#000000" lw 1.5 title 'model', \
    "" index 1 using 1:2 with points pt 6 ps 1 lc rgb "#777777" title 'micro-benchmark, same ratio', \
    "" index 0 using 1:2 with points pt 7 ps 1 lc rgb "#009E73" title 'STREAM kernel'
  set title 'copy'."\n".'ratio\_read 0.50, MARE 5.0 %' font small
  unset ylabel
  unset key
  plot \
    3.75 with lines dt 2 lc rgb "#0072B2" notitle, \
    2.5 with lines dt 3 lc rgb "#0072B2" notitle, \
    11.875 with lines dt 2 lc rgb "#D55E00" notitle, \
    7.5 with lines dt 3 lc rgb "#D55E00" notitle, \
    "hybrid-validation.dat" index 3 using 1:3 with lines lc rgb "#000000" lw 1.5 notitle, \
    "" index 3 using 1:2 with points pt 6 ps 1 lc rgb "#777777" notitle, \
    "" index 2 using 1:2 with points pt 7 ps 1 lc rgb "#009E73" notitle
  set title 'ddot'."\n".'ratio\_read 1.00, MARE 5.0 %' font small
  unset ylabel
  unset key
  plot \
    3.75 with lines dt 2 lc rgb "#0072B2" notitle, \
    2.5 with lines dt 3 lc rgb "#0072B2" notitle, \
    11.875 with lines dt 2 lc rgb "#D55E00" notitle, \
    7.5 with lines dt 3 lc rgb "#D55E00" notitle, \
    "hybrid-validation.dat" index 5 using 1:3 with lines lc rgb "#000000" lw 1.5 notitle, \
    "" index 5 using 1:2 with points pt 6 ps 1 lc rgb "#777777" notitle, \
    "" index 4 using 1:2 with points pt 7 ps 1 lc rgb "#009E73" notitle
  set title 'scale'."\n".'ratio\_read 0.50, MARE 5.0 %' font small
  set ylabel 'GB/s per thread'
  unset key
  plot \
    3.75 with lines dt 2 lc rgb "#0072B2" notitle, \
    2.5 with lines dt 3 lc rgb "#0072B2" notitle, \
    11.875 with lines dt 2 lc rgb "#D55E00" notitle, \
    7.5 with lines dt 3 lc rgb "#D55E00" notitle, \
    "hybrid-validation.dat" index 7 using 1:3 with lines lc rgb "#000000" lw 1.5 notitle, \
    "" index 7 using 1:2 with points pt 6 ps 1 lc rgb "#777777" notitle, \
    "" index 6 using 1:2 with points pt 7 ps 1 lc rgb "#009E73" notitle
  set title 'triad'."\n".'ratio\_read 0.67, MARE 5.0 %' font small
  unset ylabel
  unset key
  plot \
    3.75 with lines dt 2 lc rgb "#0072B2" notitle, \
    2.5 with lines dt 3 lc rgb "#0072B2" notitle, \
    11.875 with lines dt 2 lc rgb "#D55E00" notitle, \
    7.5 with lines dt 3 lc rgb "#D55E00" notitle, \
    "hybrid-validation.dat" index 9 using 1:3 with lines lc rgb "#000000" lw 1.5 notitle, \
    "" index 9 using 1:2 with points pt 6 ps 1 lc rgb "#777777" notitle, \
    "" index 8 using 1:2 with points pt 7 ps 1 lc rgb "#009E73" notitle
  unset multiplot
  set output
}
