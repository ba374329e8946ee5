# Bandwidth vs working-set size, domain 0
# Written by larm plot; rerun with: gnuplot sweep-domain0.gp (formats: edit the list below).
formats = "svg"
if (!exists("larm_partial")) larm_partial = ""
do for [fmt in formats] {
  if (fmt eq "png") { set terminal pngcairo enhanced size 1100,680 font "Sans,19.5" linewidth 2.5; base = 19.5 }
  if (fmt eq "svg") { set terminal svg enhanced size 550,340 font "Sans,13" linewidth 1.2 background "white"; base = 13 }
  if (fmt eq "pdf") { set terminal pdfcairo enhanced size 5.5in,3.4in font "Sans,8" linewidth 1.5; base = 8 }
  set output 'sweep-domain0.'.fmt.larm_partial
  reset
  small = sprintf(",%g", base * 0.8)
  tiny = sprintf(",%g", base * 0.75)
  set logscale x 2
  set logscale y 10
  set format y "%g"
  set xrange [853.333:8.05306e+07]
  set xlabel "Working set per thread (bytes)"
  set ylabel "Bandwidth (GB/s, all threads)"
  set grid lc rgb "#dddddd"
  set key below horizontal Left reverse font small
  set xtics ('1 KiB' 1024, '8 KiB' 8192, '64 KiB' 65536, '512 KiB' 524288, '4 MiB' 4.1943e+06, '32 MiB' 3.35544e+07) rotate by 30 right
  set arrow from 32768, graph 0 to 32768, graph 1 nohead lc rgb "#777777" dt 2
  set label 'L1 32 KiB' at 32768, graph 1 center offset 0, char 0.7 font small tc rgb "#777777"
  set arrow from 1.04858e+06, graph 0 to 1.04858e+06, graph 1 nohead lc rgb "#777777" dt 2
  set label 'L2 1 MiB' at 1.04858e+06, graph 1 center offset 0, char 0.7 font small tc rgb "#777777"
  set arrow from 1.67772e+07, graph 0 to 1.67772e+07, graph 1 nohead lc rgb "#777777" dt 2
  set label 'L3 16 MiB' at 1.67772e+07, graph 1 center offset 0, char 0.7 font small tc rgb "#777777"
  set tmargin 2
  plot \
    "sweep-domain0.dat" index 0 using 1:2 with linespoints pt 7 ps 0.7 lc rgb "#8C2D04" title 'copy, 2 threads', \
    "sweep-domain0.dat" index 1 using 1:2 with linespoints dt 2 pt 6 ps 0.7 lc rgb "#FDBE85" title 'copy, one core', \
    "sweep-domain0.dat" index 2 using 1:2 with linespoints pt 7 ps 0.7 lc rgb "#08306B" title 'load, 2 threads', \
    "sweep-domain0.dat" index 3 using 1:2 with linespoints dt 2 pt 6 ps 0.7 lc rgb "#9ECAE1" title 'load, one core', \
    "sweep-domain0.dat" index 0 using 1:($3 == 0 ? $2 : 1/0) with points pt 2 ps 1.5 lc rgb "#000000" notitle, \
    "sweep-domain0.dat" index 1 using 1:($3 == 0 ? $2 : 1/0) with points pt 2 ps 1.5 lc rgb "#000000" notitle, \
    "sweep-domain0.dat" index 2 using 1:($3 == 0 ? $2 : 1/0) with points pt 2 ps 1.5 lc rgb "#000000" notitle, \
    "sweep-domain0.dat" index 3 using 1:($3 == 0 ? $2 : 1/0) with points pt 2 ps 1.5 lc rgb "#000000" notitle, \
    keyentry with points pt 2 ps 1.5 lc rgb "#000000" title "unstable (not used for capacities)"
  unset multiplot
  set output
}
