# Bandwidth as threads are added, domain 0
# Written by larm plot; rerun with: gnuplot scaling-domain0.gp (formats: edit the list below).
formats = "svg"
if (!exists("larm_partial")) larm_partial = ""
do for [fmt in formats] {
  if (fmt eq "png") { set terminal pngcairo enhanced size 1400,680 font "Sans,19.5" linewidth 2.5; base = 19.5 }
  if (fmt eq "svg") { set terminal svg enhanced size 700,340 font "Sans,13" linewidth 1.2 background "white"; base = 13 }
  if (fmt eq "pdf") { set terminal pdfcairo enhanced size 7in,3.4in font "Sans,8" linewidth 1.5; base = 8 }
  set output 'scaling-domain0.'.fmt.larm_partial
  reset
  small = sprintf(",%g", base * 0.8)
  tiny = sprintf(",%g", base * 0.75)
  set multiplot layout 1,2 margins 0.1,0.97,0.3,0.9 spacing 0.1
  set xlabel "Threads"
  set ylabel "Load bandwidth (GB/s, all threads)"
  set logscale y 10
  set format y "%g"
  set grid lc rgb "#dddddd"
  set key at screen 0.1, screen 0.12 left top Left reverse horizontal font small
  set xrange [0.5:8.5]
  set xtics 1
  set format x "%.0f"
  set mxtics 1
  set label 'knee 3' at 3, 370.8 point pt 6 ps 2 lc rgb "#0072B2" offset char 0.5,-1 font small
  set label 'knee 4' at 4, 40.8 point pt 6 ps 2 lc rgb "#D55E00" offset char 0.5,-1 font small
  plot \
    "scaling-domain0.dat" index 0 using 1:2 with linespoints pt 7 lc rgb "#0072B2" title 'L3 (cores sharing one)', \
    "scaling-domain0.dat" index 1 using 1:2 with linespoints pt 7 lc rgb "#D55E00" title 'memory 0 (contention curve)'
  unset label
  unset key
  set ylabel "ns per line per thread"
  plot \
    "scaling-domain0.dat" index 0 using 1:($1 * 64 / $2) with linespoints pt 7 lc rgb "#0072B2" notitle, \
    "scaling-domain0.dat" index 1 using 1:($1 * 64 / $2) with linespoints pt 7 lc rgb "#D55E00" notitle
  unset multiplot
  set output
}
