# Model validation, domain 0
# Written by larm plot; rerun with: gnuplot validation-domain0.gp (formats: edit the list below).
formats = "svg"
if (!exists("larm_partial")) larm_partial = ""
do for [fmt in formats] {
  if (fmt eq "png") { set terminal pngcairo enhanced size 1300,680 font "Sans,19.5" linewidth 2.5; base = 19.5 }
  if (fmt eq "svg") { set terminal svg enhanced size 650,340 font "Sans,13" linewidth 1.2 background "white"; base = 13 }
  if (fmt eq "pdf") { set terminal pdfcairo enhanced size 6.5in,3.4in font "Sans,8" linewidth 1.5; base = 8 }
  set output 'validation-domain0.'.fmt.larm_partial
  reset
  small = sprintf(",%g", base * 0.8)
  tiny = sprintf(",%g", base * 0.75)
  set logscale x 2
  set logscale y 10
  set format y "%g"
  set xrange [1./64/1.05:64*1.05]
  set yrange [0.500781:232.316]
  set xtics ("1/64" 1./64, "1/16" 1./16, "1/4" 0.25, "1" 1, "4" 4, "16" 16, "64" 64)
  set xlabel "Arithmetic intensity (FLOP/byte)"
  set ylabel "Performance (GFLOP/s)"
  set grid lc rgb "#dddddd"
  set lmargin at screen 0.1
  set rmargin at screen 0.55
  set key at screen 0.55, screen 0.9 left top Left reverse samplen 2 font tiny
  plot \
    109.293 with lines lc rgb "#555555" dt 3 title 'fma avx512: 109 GFLOP/s', \
    54.682 with lines lc rgb "#555555" dt 2 title 'mul avx512: 54.7 GFLOP/s', \
    1/0 with lines lc rgb "#555555" dt 2 title '(same line) add avx512: 53.6 GFLOP/s', \
    "validation-domain0.dat" index 0 using 1:3 with lines lc rgb "#0072B2" notitle, \
    "" index 0 using 1:2 with points pt 5 lc rgb "#0072B2" title 'L1 load: E 2.4 %, MARE 6.3 %, n 7', \
    "validation-domain0.dat" index 1 using 1:3 with lines lc rgb "#D55E00" notitle, \
    "" index 1 using 1:2 with points pt 7 lc rgb "#D55E00" title 'L2 load: E 2.2 %, MARE 5.6 %, n 7', \
    "validation-domain0.dat" index 2 using 1:3 with lines lc rgb "#009E73" notitle, \
    "" index 2 using 1:2 with points pt 9 lc rgb "#009E73" title 'L3 load: E 1.4 %, MARE 3 %, n 7', \
    "validation-domain0.dat" index 3 using 1:3 with lines lc rgb "#CC79A7" notitle, \
    "" index 3 using 1:2 with points pt 11 lc rgb "#CC79A7" title 'memory 0 local load: E 9.4 %, MARE 18 %, n 7'
  unset multiplot
  set output
}
