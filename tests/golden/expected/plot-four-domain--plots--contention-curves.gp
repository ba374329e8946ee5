# Bandwidth to one memory as threads are added
# Written by larm plot; rerun with: gnuplot contention-curves.gp (formats: edit the list below).
formats = "svg"
if (!exists("larm_partial")) larm_partial = ""
do for [fmt in formats] {
  if (fmt eq "png") { set terminal pngcairo enhanced size 1000,680 font "Sans,19.5" linewidth 2.5; base = 19.5 }
  if (fmt eq "svg") { set terminal svg enhanced size 500,340 font "Sans,13" linewidth 1.2 background "white"; base = 13 }
  if (fmt eq "pdf") { set terminal pdfcairo enhanced size 5in,3.4in font "Sans,8" linewidth 1.5; base = 8 }
  set output 'contention-curves.'.fmt.larm_partial
  reset
  small = sprintf(",%g", base * 0.8)
  tiny = sprintf(",%g", base * 0.75)
  set xlabel "Threads"
  set ylabel "Bandwidth (GB/s)"
  set yrange [0:*]
  set xtics 1
  set format x "%.0f"
  set mxtics 1
  set grid lc rgb "#dddddd"
  set key outside right font small
  set label 'knee 4' at 4, 40.8 point pt 6 ps 2 lc rgb "#0072B2" offset char 0.5,-1 font small
  set label 'knee 4' at 4, 163.2 point pt 6 ps 2 lc rgb "#D55E00" offset char 0.5,-1 font small
  plot \
    "contention-curves.dat" index 0 using 1:2 with linespoints pt 7 lc rgb "#0072B2" title 'memory 0', \
    "contention-curves.dat" index 1 using 1:2 with linespoints pt 7 lc rgb "#D55E00" title 'memory 1'
  unset multiplot
  set output
}
