# Hybrid bandwidth vs ratio_fast, one panel per ratio_read
# Written by larm plot; rerun with: gnuplot hybrid-sweep.gp (formats: edit the list below).
formats = "svg"
if (!exists("larm_partial")) larm_partial = ""
do for [fmt in formats] {
  if (fmt eq "png") { set terminal pngcairo enhanced size 1400,919 font "Sans,19.5" linewidth 2.5; base = 19.5 }
  if (fmt eq "svg") { set terminal svg enhanced size 700,459 font "Sans,13" linewidth 1.2 background "white"; base = 13 }
  if (fmt eq "pdf") { set terminal pdfcairo enhanced size 7in,4.6in font "Sans,8" linewidth 1.5; base = 8 }
  set output 'hybrid-sweep.'.fmt.larm_partial
  reset
  small = sprintf(",%g", base * 0.8)
  tiny = sprintf(",%g", base * 0.75)
  set multiplot layout 2,4 margins 0.12,0.98,0.134783,0.908696 spacing 0.03,0.206522
  set xrange [0:1]
  set yrange [0:195.938]
  set xtics 0.5
  set mxtics 5
  set grid lc rgb "#dddddd"
  set xlabel 'ratio\_fast'
  set title 'ratio\_read 0.00'
  set ylabel "Bandwidth (GB/s)"
  set format y "%g"
  set key at screen 0.570000, screen 0.400000 left top Left reverse vertical font small samplen 3
  plot "hybrid-sweep.dat" index 0 using 1:4 with lines lc rgb "#56B4E9" dt 2 title "max (t_{min})", \
    "" index 0 using 1:5 with lines lc rgb "#E69F00" dt 2 title "min (t_{max})", \
    "" index 0 using 1:3 with lines lc rgb "#000000" lw 1.5 title "model", \
    "" index 0 using 1:2 with points pt 7 ps 1 lc rgb "#D55E00" title "measured"
  set title 'ratio\_read 0.25'
  unset ylabel
  set format y ""
  unset key
  plot "hybrid-sweep.dat" index 1 using 1:4 with lines lc rgb "#56B4E9" dt 2 notitle, \
    "" index 1 using 1:5 with lines lc rgb "#E69F00" dt 2 notitle, \
    "" index 1 using 1:3 with lines lc rgb "#000000" lw 1.5 notitle, \
    "" index 1 using 1:2 with points pt 7 ps 1 lc rgb "#D55E00" notitle
  set title 'ratio\_read 0.50'
  unset ylabel
  set format y ""
  unset key
  plot "hybrid-sweep.dat" index 2 using 1:4 with lines lc rgb "#56B4E9" dt 2 notitle, \
    "" index 2 using 1:5 with lines lc rgb "#E69F00" dt 2 notitle, \
    "" index 2 using 1:3 with lines lc rgb "#000000" lw 1.5 notitle, \
    "" index 2 using 1:2 with points pt 7 ps 1 lc rgb "#D55E00" notitle
  set title 'ratio\_read 0.67'
  unset ylabel
  set format y ""
  unset key
  plot "hybrid-sweep.dat" index 3 using 1:4 with lines lc rgb "#56B4E9" dt 2 notitle, \
    "" index 3 using 1:5 with lines lc rgb "#E69F00" dt 2 notitle, \
    "" index 3 using 1:3 with lines lc rgb "#000000" lw 1.5 notitle, \
    "" index 3 using 1:2 with points pt 7 ps 1 lc rgb "#D55E00" notitle
  set title 'ratio\_read 0.75'
  set ylabel "Bandwidth (GB/s)"
  set format y "%g"
  unset key
  plot "hybrid-sweep.dat" index 4 using 1:4 with lines lc rgb "#56B4E9" dt 2 notitle, \
    "" index 4 using 1:5 with lines lc rgb "#E69F00" dt 2 notitle, \
    "" index 4 using 1:3 with lines lc rgb "#000000" lw 1.5 notitle, \
    "" index 4 using 1:2 with points pt 7 ps 1 lc rgb "#D55E00" notitle
  set title 'ratio\_read 1.00'
  unset ylabel
  set format y ""
  unset key
  plot "hybrid-sweep.dat" index 5 using 1:4 with lines lc rgb "#56B4E9" dt 2 notitle, \
    "" index 5 using 1:5 with lines lc rgb "#E69F00" dt 2 notitle, \
    "" index 5 using 1:3 with lines lc rgb "#000000" lw 1.5 notitle, \
    "" index 5 using 1:2 with points pt 7 ps 1 lc rgb "#D55E00" notitle
  unset multiplot
  set output
}
