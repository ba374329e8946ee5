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
  set xrange [853.333:6.44245e+08]
  set xlabel "Working set per thread (bytes)"
  set ylabel "Bandwidth (GB/s, all threads)"
  set grid lc rgb "#dddddd"
  set key below horizontal Left reverse font small
  set xtics ('1 KiB' 1024, '8 KiB' 8192, '64 KiB' 65536, '512 KiB' 524288, '4 MiB' 4.1943e+06, '32 MiB' 3.35544e+07, '256 MiB' 2.68435e+08) rotate by 30 right
  set arrow from 45056, graph 0 to 45056, graph 1 nohead lc rgb "#D55E00" dt 1 lw 1.5
  set label 'L1 effective 44 KiB' at 45056, graph 1 center offset 0, char 0.7 font small tc rgb "#D55E00"
  set arrow from 49152, graph 0 to 49152, graph 1 nohead lc rgb "#777777" dt 2
  set label 'L1 48 KiB' at 49152, graph 1 center offset 0, char 1.7 font small tc rgb "#777777"
  set arrow from 1.04858e+06, graph 0 to 1.04858e+06, graph 1 nohead lc rgb "#777777" dt 2
  set label 'L2 1 MiB' at 1.04858e+06, graph 1 center offset 0, char 1.7 font small tc rgb "#777777"
  set arrow from 1.04858e+06, graph 0 to 1.04858e+06, graph 1 nohead lc rgb "#D55E00" dt 1 lw 1.5
  set label 'L2 effective 1 MiB' at 1.04858e+06, graph 1 center offset 0, char 2.7 font small tc rgb "#D55E00"
  set arrow from 1.67772e+07, graph 0 to 1.67772e+07, graph 1 nohead lc rgb "#D55E00" dt 1 lw 1.5
  set label 'L3 effective 16 MiB' at 1.67772e+07, graph 1 center offset 0, char 0.7 font small tc rgb "#D55E00"
  set arrow from 5.32677e+08, graph 0 to 5.32677e+08, graph 1 nohead lc rgb "#777777" dt 2
  set label 'L3 508 MiB' at 5.32677e+08, graph 1 right offset 0, char 1.7 font small tc rgb "#777777"
  set tmargin 4
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
