# Load-to-use latency vs working-set size, domain 0
# Written by larm plot; rerun with: gnuplot latency-sweep-domain0.gp (formats: edit the list below).
formats = "svg"
if (!exists("larm_partial")) larm_partial = ""
do for [fmt in formats] {
  if (fmt eq "png") { set terminal pngcairo enhanced size 1100,680 font "Sans,19.5" linewidth 2.5; base = 19.5 }
  if (fmt eq "svg") { set terminal svg enhanced size 550,340 font "Sans,13" linewidth 1.2 background "white"; base = 13 }
  if (fmt eq "pdf") { set terminal pdfcairo enhanced size 5.5in,3.4in font "Sans,8" linewidth 1.5; base = 8 }
  set output 'latency-sweep-domain0.'.fmt.larm_partial
  reset
  small = sprintf(",%g", base * 0.8)
  tiny = sprintf(",%g", base * 0.75)
  set logscale x 2
  set logscale y 10
  set format y "%g"
  set xrange [853.333:2.70872e+08]
  set xlabel "Working set (bytes)"
  set ylabel "Latency (ns per dependent load)"
  set grid lc rgb "#dddddd"
  set key bottom right font small
  set xtics ('1 KiB' 1024, '8 KiB' 8192, '64 KiB' 65536, '512 KiB' 524288, '4 MiB' 4.1943e+06, '32 MiB' 3.35544e+07) rotate by 30 right
  set arrow from 46336, graph 0 to 46336, graph 1 nohead lc rgb "#D55E00" dt 1 lw 1.5
  set label 'L1 effective 45.2 KiB' at 46336, graph 1 center offset 0, char 0.7 font small tc rgb "#D55E00"
  set arrow from 49152, graph 0 to 49152, graph 1 nohead lc rgb "#777777" dt 2
  set label 'L1 declared 48 KiB' at 49152, graph 1 center offset 0, char 1.7 font small tc rgb "#777777"
  set arrow from 881728, graph 0 to 881728, graph 1 nohead lc rgb "#D55E00" dt 1 lw 1.5
  set label 'L2 effective 861 KiB' at 881728, graph 1 center offset 0, char 2.7 font small tc rgb "#D55E00"
  set arrow from 1.04858e+06, graph 0 to 1.04858e+06, graph 1 nohead lc rgb "#777777" dt 2
  set label 'L2 declared 1 MiB' at 1.04858e+06, graph 1 center offset 0, char 3.7 font small tc rgb "#777777"
  set arrow from 2.09715e+06, graph 0 to 2.09715e+06, graph 1 nohead lc rgb "#D55E00" dt 1 lw 1.5
  set label 'L3 effective 2 MiB' at 2.09715e+06, graph 1 center offset 0, char 4.7 font small tc rgb "#D55E00"
  set tmargin 6
  plot "latency-sweep-domain0.dat" index 0 using 1:2 with linespoints pt 7 ps 0.7 lc rgb "#0072B2" title "pointer chase, one core", \
    "latency-sweep-domain0.dat" index 0 using 1:($3 == 0 ? $2 : 1/0) with points pt 2 ps 1.5 lc rgb "#000000" notitle, \
    keyentry with points pt 2 ps 1.5 lc rgb "#000000" title "unstable (not used for capacities)"
  unset multiplot
  set output
}
