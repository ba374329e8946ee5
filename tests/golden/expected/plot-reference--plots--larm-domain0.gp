# LARM of domain 0 (load roofs, dp ceilings)
# Written by larm plot; rerun with: gnuplot larm-domain0.gp (formats: edit the list below).
formats = "svg"
if (!exists("larm_partial")) larm_partial = ""
do for [fmt in formats] {
  if (fmt eq "png") { set terminal pngcairo enhanced size 1400,992 font "Sans,19.5" linewidth 2.5; base = 19.5 }
  if (fmt eq "svg") { set terminal svg enhanced size 700,496 font "Sans,13" linewidth 1.2 background "white"; base = 13 }
  if (fmt eq "pdf") { set terminal pdfcairo enhanced size 7in,4.96in font "Sans,8" linewidth 1.5; base = 8 }
  set output 'larm-domain0.'.fmt.larm_partial
  reset
  small = sprintf(",%g", base * 0.8)
  tiny = sprintf(",%g", base * 0.75)
  min(a, b) = a < b ? a : b
  set logscale x 2
  set logscale y 10
  set samples 500
  set xrange [0.014881:67.2]
  set yrange [0.1:503.974]
  set xtics ("1/64" 1./64, "1/16" 1./16, "1/4" 0.25, "1" 1, "4" 4, "16" 16, "64" 64)
  set mxtics 2
  set format y "%g"
  set ytics nomirror
  set grid xtics ytics lc rgb "#dddddd"
  set xlabel "Arithmetic intensity (FLOP/byte)"
  set ylabel "Performance (GFLOP/s)"
  set lmargin at screen 0.12
  set rmargin at screen 0.82
  set tmargin at screen 0.919355
  set bmargin at screen 0.475806
  set key at screen 0.06, screen 0.364919 left top Left reverse samplen 4 font small vertical maxrows 11 maxcols 1
  F = 201.59
  set y2tics ('add,mul 102' 102.198, 'fma 202' 201.59)
  set y2range [0.1:503.974]
  set logscale y2
  set title 'Domain 0: load roofs, dp ceilings'
  plot \
    '+' using 1:(min($1*603.646, F)):(min($1*770.659, F)) with filledcurves fs transparent solid 0.18 noborder lc rgb "#56B4E9" notitle, \
    min(x*762.305, F) with lines lc rgb "#56B4E9" dt 1 lw 1.5 title 'L1: 762.3 GB/s', \
    '+' using 1:(min($1*247.629, F)):(min($1*266.936, F)) with filledcurves fs transparent solid 0.18 noborder lc rgb "#009E73" notitle, \
    min(x*263.168, F) with lines lc rgb "#009E73" dt 1 lw 1.5 title 'L2: 263.2 GB/s', \
    '+' using 1:(min($1*156.33, F)):(min($1*164.392, F)) with filledcurves fs transparent solid 0.18 noborder lc rgb "#E69F00" notitle, \
    min(x*164.068, F) with lines lc rgb "#E69F00" dt 1 lw 1.5 title 'L3: 164.1 GB/s', \
    '+' using 1:(min($1*65.8087, F)):(min($1*67.7044, F)) with filledcurves fs transparent solid 0.18 noborder lc rgb "#000000" notitle, \
    min(x*67.0045, F) with lines lc rgb "#000000" dt 1 lw 1.5 title 'mem 0 DRAM local: 67.00 GB/s', \
    '+' using 1:(100.589):(102.879) with filledcurves fs transparent solid 0.18 noborder lc rgb "#555555" notitle, \
    102.198 with lines lc rgb "#555555" dt 3 lw 1 title 'add avx512: 102.2 GFLOP/s', \
    1/0 with lines lc rgb "#555555" dt 3 lw 1 title '(same line) mul avx512: 101.8 GFLOP/s', \
    '+' using 1:(200.767):(202.303) with filledcurves fs transparent solid 0.18 noborder lc rgb "#555555" notitle, \
    201.59 with lines lc rgb "#555555" dt 3 lw 1 title 'fma avx512: 201.6 GFLOP/s', \
    "larm-domain0-validation.dat" using 1:2 with points pt 1 ps 0.8 lc rgb "#777777" title "validation points", \
    "larm-domain0-regions.dat" index 0 using 1:2:4 with points pt variable ps 1.2 lc rgb "#661100" notitle, \
    1/0 with points pt 7 ps 1.2 lc rgb "#661100" title 'run: firsttouch', \
    "larm-domain0-regions.dat" index 1 using 1:2:4 with points pt variable ps 1.2 lc rgb "#117733" notitle, \
    1/0 with points pt 7 ps 1.2 lc rgb "#117733" title 'run: interleave', \
    1/0 with points pt 5 ps 1.2 lc rgb "#444444" title 'region: triad'
  unset multiplot
  set output
}
