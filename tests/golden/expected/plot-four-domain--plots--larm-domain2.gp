# LARM of domain 2 (load roofs, dp ceilings)
# Written by larm plot; rerun with: gnuplot larm-domain2.gp (formats: edit the list below).
formats = "svg"
if (!exists("larm_partial")) larm_partial = ""
do for [fmt in formats] {
  if (fmt eq "png") { set terminal pngcairo enhanced size 1400,1024 font "Sans,19.5" linewidth 2.5; base = 19.5 }
  if (fmt eq "svg") { set terminal svg enhanced size 700,512 font "Sans,13" linewidth 1.2 background "white"; base = 13 }
  if (fmt eq "pdf") { set terminal pdfcairo enhanced size 7in,5.12in font "Sans,8" linewidth 1.5; base = 8 }
  set output 'larm-domain2.'.fmt.larm_partial
  reset
  small = sprintf(",%g", base * 0.8)
  tiny = sprintf(",%g", base * 0.75)
  min(a, b) = a < b ? a : b
  set logscale x 2
  set logscale y 10
  set samples 500
  set xrange [0.014881:67.2]
  set yrange [0.1:273.233]
  set xtics ("1/64" 1./64, "1/16" 1./16, "1/4" 0.25, "1" 1, "4" 4, "16" 16, "64" 64)
  set mxtics 2
  set format y "%g"
  set ytics nomirror
  set grid xtics ytics lc rgb "#dddddd"
  set xlabel "Arithmetic intensity (FLOP/byte)"
  set ylabel "Performance (GFLOP/s)"
  set lmargin at screen 0.12
  set rmargin at screen 0.82
  set tmargin at screen 0.921875
  set bmargin at screen 0.492188
  set key at screen 0.06, screen 0.384766 left top Left reverse samplen 4 font small vertical maxrows 12 maxcols 1
  F = 109.293
  set y2tics ('add,mul 53.6' 53.6476, 'fma 109' 109.293)
  set y2range [0.1:273.233]
  set logscale y2
  set title 'Domain 2: load roofs, dp ceilings'
  plot \
    min(x*389.347, F) with lines lc rgb "#56B4E9" dt 1 lw 1.5 title 'L1: 389.3 GB/s', \
    min(x*215.391, F) with lines lc rgb "#009E73" dt 1 lw 1.5 title 'L2: 215.4 GB/s', \
    min(x*168.53, F) with lines lc rgb "#E69F00" dt 1 lw 1.5 title 'L3: 168.5 GB/s', \
    '+' using 1:(min($1*19.8337, F)):(min($1*19.8337, F)) with filledcurves fs transparent solid 0.18 noborder lc rgb "#000000" notitle, \
    min(x*19.8337, F) with lines lc rgb "#000000" dt 2 lw 1.5 title 'mem 0, 2, 6 DRAM remote: 19.83 GB/s', \
    '+' using 1:(min($1*9.91685, F)):(min($1*9.91685, F)) with filledcurves fs transparent solid 0.18 noborder lc rgb "#000000" notitle, \
    min(x*9.91685, F) with lines lc rgb "#000000" dt 4 lw 1.5 title 'mem 0, 2, 4, 6 DRAM contention: 9.92 GB/s', \
    '+' using 1:(min($1*79.3348, F)):(min($1*79.3348, F)) with filledcurves fs transparent solid 0.18 noborder lc rgb "#D55E00" notitle, \
    min(x*79.3348, F) with lines lc rgb "#D55E00" dt 2 lw 1.5 title 'mem 1, 3, 7 HBM remote: 79.33 GB/s', \
    '+' using 1:(min($1*39.6674, F)):(min($1*39.6674, F)) with filledcurves fs transparent solid 0.18 noborder lc rgb "#D55E00" notitle, \
    min(x*39.6674, F) with lines lc rgb "#D55E00" dt 4 lw 1.5 title 'mem 1, 3, 5, 7 HBM contention: 39.67 GB/s', \
    '+' using 1:(min($1*33.0562, F)):(min($1*33.0562, F)) with filledcurves fs transparent solid 0.18 noborder lc rgb "#882255" notitle, \
    min(x*33.0562, F) with lines lc rgb "#882255" dt 1 lw 1.5 title 'mem 4 DRAM local = congestion (all memories): 33.06 GB/s', \
    min(x*132.225, F) with lines lc rgb "#44AA99" dt 1 lw 1.5 title 'mem 5 HBM local: 132.2 GB/s', \
    '+' using 1:(53.6476):(54.682) with filledcurves fs transparent solid 0.18 noborder lc rgb "#555555" notitle, \
    53.6476 with lines lc rgb "#555555" dt 3 lw 1 title 'add avx512: 53.65 GFLOP/s', \
    1/0 with lines lc rgb "#555555" dt 3 lw 1 title '(same line) mul avx512: 54.68 GFLOP/s', \
    109.293 with lines lc rgb "#555555" dt 3 lw 1 title 'fma avx512: 109.3 GFLOP/s'
  unset multiplot
  set output
}
