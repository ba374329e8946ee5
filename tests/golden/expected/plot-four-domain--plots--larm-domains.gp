# LARM of every domain, shared axes
# Written by larm plot; rerun with: gnuplot larm-domains.gp (formats: edit the list below).
formats = "svg"
if (!exists("larm_partial")) larm_partial = ""
do for [fmt in formats] {
  if (fmt eq "png") { set terminal pngcairo enhanced size 1839,844 font "Sans,19.5" linewidth 2.5; base = 19.5 }
  if (fmt eq "svg") { set terminal svg enhanced size 919,422 font "Sans,13" linewidth 1.2 background "white"; base = 13 }
  if (fmt eq "pdf") { set terminal pdfcairo enhanced size 9.2in,4.22in font "Sans,8" linewidth 1.5; base = 8 }
  set output 'larm-domains.'.fmt.larm_partial
  reset
  small = sprintf(",%g", base * 0.8)
  tiny = sprintf(",%g", base * 0.75)
  set multiplot
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
  set xlabel "AI (FLOP/byte)"
  set xtics ("1/16" 1./16, "1" 1, "16" 16)
  set lmargin at screen 0.09
  set rmargin at screen 0.26875
  set tmargin at screen 0.914692
  set bmargin at screen 0.43128
  F = 109.293
  set y2tics ('add,mul 53.6' 53.6476, 'fma 109' 109.293)
  set y2range [0.1:273.233]
  set logscale y2
  unset y2tics
  set title 'Domain 0'
  unset key
  plot \
    min(x*389.347, F) with lines lc rgb "#56B4E9" dt 1 lw 1.5 title 'L1: 389.3 GB/s', \
    min(x*215.391, F) with lines lc rgb "#009E73" dt 1 lw 1.5 title 'L2: 215.4 GB/s', \
    min(x*168.53, F) with lines lc rgb "#E69F00" dt 1 lw 1.5 title 'L3: 168.5 GB/s', \
    '+' using 1:(min($1*33.0562, F)):(min($1*33.0562, F)) with filledcurves fs transparent solid 0.18 noborder lc rgb "#000000" notitle, \
    min(x*33.0562, F) with lines lc rgb "#000000" dt 1 lw 1.5 title 'mem 0 DRAM local = congestion (all memories): 33.06 GB/s', \
    '+' using 1:(min($1*9.91685, F)):(min($1*9.91685, F)) with filledcurves fs transparent solid 0.18 noborder lc rgb "#000000" notitle, \
    min(x*9.91685, F) with lines lc rgb "#000000" dt 4 lw 1.5 title 'mem 0, 2, 4, 6 DRAM contention: 9.92 GB/s', \
    min(x*132.225, F) with lines lc rgb "#D55E00" dt 1 lw 1.5 title 'mem 1 HBM local: 132.2 GB/s', \
    '+' using 1:(min($1*39.6674, F)):(min($1*39.6674, F)) with filledcurves fs transparent solid 0.18 noborder lc rgb "#D55E00" notitle, \
    min(x*39.6674, F) with lines lc rgb "#D55E00" dt 4 lw 1.5 title 'mem 1, 3, 5, 7 HBM contention: 39.67 GB/s', \
    '+' using 1:(min($1*19.8337, F)):(min($1*19.8337, F)) with filledcurves fs transparent solid 0.18 noborder lc rgb "#0072B2" notitle, \
    min(x*19.8337, F) with lines lc rgb "#0072B2" dt 2 lw 1.5 title 'mem 2, 4, 6 DRAM remote: 19.83 GB/s', \
    '+' using 1:(min($1*79.3348, F)):(min($1*79.3348, F)) with filledcurves fs transparent solid 0.18 noborder lc rgb "#CC79A7" notitle, \
    min(x*79.3348, F) with lines lc rgb "#CC79A7" dt 2 lw 1.5 title 'mem 3, 5, 7 HBM remote: 79.33 GB/s', \
    min(x*30, F) with lines lc rgb "#aa3377" dt 4 lw 1.5 title 'hybrid roof of triad: 30.00 GB/s', \
    '+' using 1:(53.6476):(54.682) with filledcurves fs transparent solid 0.18 noborder lc rgb "#555555" notitle, \
    53.6476 with lines lc rgb "#555555" dt 3 lw 1 title 'add avx512: 53.65 GFLOP/s', \
    1/0 with lines lc rgb "#555555" dt 3 lw 1 title '(same line) mul avx512: 54.68 GFLOP/s', \
    109.293 with lines lc rgb "#555555" dt 3 lw 1 title 'fma avx512: 109.3 GFLOP/s', \
    "larm-domain0-validation.dat" using 1:2 with points pt 1 ps 0.8 lc rgb "#777777" title "validation points", \
    "larm-domain0-regions.dat" index 0 using 1:2:4 with points pt variable ps 1.2 lc rgb "#661100" notitle, \
    1/0 with points pt 7 ps 1.2 lc rgb "#661100" title 'run: firsttouch', \
    1/0 with points pt 5 ps 1.2 lc rgb "#444444" title 'region: triad'
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
  set xlabel "AI (FLOP/byte)"
  set xtics ("1/16" 1./16, "1" 1, "16" 16)
  unset ylabel
  set format y ""
  set lmargin at screen 0.28375
  set rmargin at screen 0.4625
  set tmargin at screen 0.914692
  set bmargin at screen 0.43128
  F = 109.293
  set y2tics ('add,mul 53.6' 53.6476, 'fma 109' 109.293)
  set y2range [0.1:273.233]
  set logscale y2
  unset y2tics
  set title 'Domain 1'
  unset key
  plot \
    min(x*389.347, F) with lines lc rgb "#56B4E9" dt 1 lw 1.5 title 'L1: 389.3 GB/s', \
    min(x*215.391, F) with lines lc rgb "#009E73" dt 1 lw 1.5 title 'L2: 215.4 GB/s', \
    min(x*168.53, F) with lines lc rgb "#E69F00" dt 1 lw 1.5 title 'L3: 168.5 GB/s', \
    '+' using 1:(min($1*19.8337, F)):(min($1*19.8337, F)) with filledcurves fs transparent solid 0.18 noborder lc rgb "#000000" notitle, \
    min(x*19.8337, F) with lines lc rgb "#000000" dt 2 lw 1.5 title 'mem 0, 4, 6 DRAM remote: 19.83 GB/s', \
    '+' using 1:(min($1*9.91685, F)):(min($1*9.91685, F)) with filledcurves fs transparent solid 0.18 noborder lc rgb "#000000" notitle, \
    min(x*9.91685, F) with lines lc rgb "#000000" dt 4 lw 1.5 title 'mem 0, 2, 4, 6 DRAM contention: 9.92 GB/s', \
    '+' using 1:(min($1*79.3348, F)):(min($1*79.3348, F)) with filledcurves fs transparent solid 0.18 noborder lc rgb "#D55E00" notitle, \
    min(x*79.3348, F) with lines lc rgb "#D55E00" dt 2 lw 1.5 title 'mem 1, 5, 7 HBM remote: 79.33 GB/s', \
    '+' using 1:(min($1*39.6674, F)):(min($1*39.6674, F)) with filledcurves fs transparent solid 0.18 noborder lc rgb "#D55E00" notitle, \
    min(x*39.6674, F) with lines lc rgb "#D55E00" dt 4 lw 1.5 title 'mem 1, 3, 5, 7 HBM contention: 39.67 GB/s', \
    '+' using 1:(min($1*33.0562, F)):(min($1*33.0562, F)) with filledcurves fs transparent solid 0.18 noborder lc rgb "#0072B2" notitle, \
    min(x*33.0562, F) with lines lc rgb "#0072B2" dt 1 lw 1.5 title 'mem 2 DRAM local = congestion (all memories): 33.06 GB/s', \
    min(x*132.225, F) with lines lc rgb "#CC79A7" dt 1 lw 1.5 title 'mem 3 HBM local: 132.2 GB/s', \
    '+' using 1:(53.6476):(54.682) with filledcurves fs transparent solid 0.18 noborder lc rgb "#555555" notitle, \
    53.6476 with lines lc rgb "#555555" dt 3 lw 1 title 'add avx512: 53.65 GFLOP/s', \
    1/0 with lines lc rgb "#555555" dt 3 lw 1 title '(same line) mul avx512: 54.68 GFLOP/s', \
    109.293 with lines lc rgb "#555555" dt 3 lw 1 title 'fma avx512: 109.3 GFLOP/s'
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
  set xlabel "AI (FLOP/byte)"
  set xtics ("1/16" 1./16, "1" 1, "16" 16)
  unset ylabel
  set format y ""
  set lmargin at screen 0.4775
  set rmargin at screen 0.65625
  set tmargin at screen 0.914692
  set bmargin at screen 0.43128
  F = 109.293
  set y2tics ('add,mul 53.6' 53.6476, 'fma 109' 109.293)
  set y2range [0.1:273.233]
  set logscale y2
  unset y2tics
  set title 'Domain 2'
  unset key
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
  set xlabel "AI (FLOP/byte)"
  set xtics ("1/16" 1./16, "1" 1, "16" 16)
  unset ylabel
  set format y ""
  set lmargin at screen 0.67125
  set rmargin at screen 0.85
  set tmargin at screen 0.914692
  set bmargin at screen 0.43128
  F = 109.293
  set y2tics ('add,mul 53.6' 53.6476, 'fma 109' 109.293)
  set y2range [0.1:273.233]
  set logscale y2
  set title 'Domain 3'
  unset key
  plot \
    min(x*389.347, F) with lines lc rgb "#56B4E9" dt 1 lw 1.5 title 'L1: 389.3 GB/s', \
    min(x*215.391, F) with lines lc rgb "#009E73" dt 1 lw 1.5 title 'L2: 215.4 GB/s', \
    min(x*168.53, F) with lines lc rgb "#E69F00" dt 1 lw 1.5 title 'L3: 168.5 GB/s', \
    '+' using 1:(min($1*19.8337, F)):(min($1*19.8337, F)) with filledcurves fs transparent solid 0.18 noborder lc rgb "#000000" notitle, \
    min(x*19.8337, F) with lines lc rgb "#000000" dt 2 lw 1.5 title 'mem 0, 2, 4 DRAM remote: 19.83 GB/s', \
    '+' using 1:(min($1*9.91685, F)):(min($1*9.91685, F)) with filledcurves fs transparent solid 0.18 noborder lc rgb "#000000" notitle, \
    min(x*9.91685, F) with lines lc rgb "#000000" dt 4 lw 1.5 title 'mem 0, 2, 4, 6 DRAM contention: 9.92 GB/s', \
    '+' using 1:(min($1*79.3348, F)):(min($1*79.3348, F)) with filledcurves fs transparent solid 0.18 noborder lc rgb "#D55E00" notitle, \
    min(x*79.3348, F) with lines lc rgb "#D55E00" dt 2 lw 1.5 title 'mem 1, 3, 5 HBM remote: 79.33 GB/s', \
    '+' using 1:(min($1*39.6674, F)):(min($1*39.6674, F)) with filledcurves fs transparent solid 0.18 noborder lc rgb "#D55E00" notitle, \
    min(x*39.6674, F) with lines lc rgb "#D55E00" dt 4 lw 1.5 title 'mem 1, 3, 5, 7 HBM contention: 39.67 GB/s', \
    '+' using 1:(min($1*33.0562, F)):(min($1*33.0562, F)) with filledcurves fs transparent solid 0.18 noborder lc rgb "#999933" notitle, \
    min(x*33.0562, F) with lines lc rgb "#999933" dt 1 lw 1.5 title 'mem 6 DRAM local = congestion (all memories): 33.06 GB/s', \
    min(x*132.225, F) with lines lc rgb "#332288" dt 1 lw 1.5 title 'mem 7 HBM local: 132.2 GB/s', \
    '+' using 1:(53.6476):(54.682) with filledcurves fs transparent solid 0.18 noborder lc rgb "#555555" notitle, \
    53.6476 with lines lc rgb "#555555" dt 3 lw 1 title 'add avx512: 53.65 GFLOP/s', \
    1/0 with lines lc rgb "#555555" dt 3 lw 1 title '(same line) mul avx512: 54.68 GFLOP/s', \
    109.293 with lines lc rgb "#555555" dt 3 lw 1 title 'fma avx512: 109.3 GFLOP/s'
  unset border
  unset tics
  unset xlabel
  unset ylabel
  unset title
  unset grid
  unset label
  unset logscale
  set xrange [0:1]
  set yrange [0:1]
  set lmargin at screen 0.045
  set rmargin at screen 0.98
  set tmargin at screen 0.28436
  set bmargin at screen 0.01
  set key inside left top Left reverse samplen 3 font small horizontal maxcols 3 maxrows 7
  plot \
    1/0 notitle, \
    keyentry with lines lc rgb "#56B4E9" dt 1 lw 1.5 title 'L1', \
    keyentry with lines lc rgb "#009E73" dt 1 lw 1.5 title 'L2', \
    keyentry with lines lc rgb "#E69F00" dt 1 lw 1.5 title 'L3', \
    keyentry with lines lc rgb "#000000" dt 1 lw 1.5 title 'mem 0 DRAM', \
    keyentry with lines lc rgb "#D55E00" dt 1 lw 1.5 title 'mem 1 HBM', \
    keyentry with lines lc rgb "#0072B2" dt 1 lw 1.5 title 'mem 2 DRAM', \
    keyentry with lines lc rgb "#CC79A7" dt 1 lw 1.5 title 'mem 3 HBM', \
    keyentry with lines lc rgb "#882255" dt 1 lw 1.5 title 'mem 4 DRAM', \
    keyentry with lines lc rgb "#44AA99" dt 1 lw 1.5 title 'mem 5 HBM', \
    keyentry with lines lc rgb "#999933" dt 1 lw 1.5 title 'mem 6 DRAM', \
    keyentry with lines lc rgb "#332288" dt 1 lw 1.5 title 'mem 7 HBM', \
    keyentry with lines lc rgb "#999999" lw 1.5 dt 1 title 'local', \
    keyentry with lines lc rgb "#999999" lw 1.5 dt 2 title 'remote', \
    keyentry with lines lc rgb "#999999" lw 1.5 dt 4 title 'contention', \
    keyentry with lines lc rgb "#CC79A7" dt 3 lw 1.5 title "congestion (all memories)", \
    keyentry with lines lc rgb "#555555" dt 3 lw 1 title "FLOP ceilings", \
    keyentry with lines lc rgb "#aa3377" dt 4 lw 1.5 title 'hybrid roof of triad', \
    keyentry with points pt 1 ps 0.8 lc rgb "#777777" title "validation points", \
    keyentry with points pt 7 ps 1.2 lc rgb "#661100" title 'run: firsttouch', \
    keyentry with points pt 5 ps 1.2 lc rgb "#444444" title 'region: triad'
  unset multiplot
  set output
}
