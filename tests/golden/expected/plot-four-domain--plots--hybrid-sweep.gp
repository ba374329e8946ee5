# Hybrid bandwidth vs ratio_fast, one panel per ratio_read
# Written by larm plot; rerun with: gnuplot hybrid-sweep.gp (formats: edit the list below).
formats = "svg"
if (!exists("larm_partial")) larm_partial = ""
do for [fmt in formats] {
  if (fmt eq "png") { set terminal pngcairo enhanced size 2120,560 font "Sans,24" linewidth 2.5; base = 24 }
  if (fmt eq "svg") { set terminal svg enhanced size 1060,280 font "Sans,13" linewidth 1.2 background "white"; base = 13 }
  if (fmt eq "pdf") { set terminal pdfcairo enhanced size 10.6in,2.8in font "Sans,8" linewidth 1.5; base = 8 }
  set output 'hybrid-sweep.'.fmt.larm_partial
  reset
  small = sprintf(",%g", base * 0.8)
  tiny = sprintf(",%g", base * 0.65)
  set multiplot layout 1,7
  set xrange [0:1]
  set yrange [0:195.938]
  set xtics 0.5
  set mxtics 5
  set grid lc rgb "#dddddd"
  set xlabel 'ratio\_fast'
  set title 'ratio\_read 0.00'
  set ylabel "Bandwidth (GB/s)"
  set key bottom right font small
  plot "hybrid-sweep.dat" index 0 using 1:4 with lines lc rgb "#56B4E9" dt 2 title "max (t_{min})", \
    "" index 0 using 1:5 with lines lc rgb "#E69F00" dt 2 title "min (t_{max})", \
    "" index 0 using 1:3 with lines lc rgb "#000000" lw 1.5 title "model", \
    "" index 0 using 1:2 with points pt 7 ps 1 lc rgb "#D55E00" title "measured"
  set title 'ratio\_read 0.25'
  unset ylabel
  unset key
  plot "hybrid-sweep.dat" index 1 using 1:4 with lines lc rgb "#56B4E9" dt 2 title "max (t_{min})", \
    "" index 1 using 1:5 with lines lc rgb "#E69F00" dt 2 title "min (t_{max})", \
    "" index 1 using 1:3 with lines lc rgb "#000000" lw 1.5 title "model", \
    "" index 1 using 1:2 with points pt 7 ps 1 lc rgb "#D55E00" title "measured"
  set title 'ratio\_read 0.50'
  unset ylabel
  unset key
  plot "hybrid-sweep.dat" index 2 using 1:4 with lines lc rgb "#56B4E9" dt 2 title "max (t_{min})", \
    "" index 2 using 1:5 with lines lc rgb "#E69F00" dt 2 title "min (t_{max})", \
    "" index 2 using 1:3 with lines lc rgb "#000000" lw 1.5 title "model", \
    "" index 2 using 1:2 with points pt 7 ps 1 lc rgb "#D55E00" title "measured"
  set title 'ratio\_read 0.66'
  unset ylabel
  unset key
  plot "hybrid-sweep.dat" index 3 using 1:4 with lines lc rgb "#56B4E9" dt 2 title "max (t_{min})", \
    "" index 3 using 1:5 with lines lc rgb "#E69F00" dt 2 title "min (t_{max})", \
    "" index 3 using 1:3 with lines lc rgb "#000000" lw 1.5 title "model", \
    "" index 3 using 1:2 with points pt 7 ps 1 lc rgb "#D55E00" title "measured"
  set title 'ratio\_read 0.66'
  unset ylabel
  unset key
  plot "hybrid-sweep.dat" index 4 using 1:4 with lines lc rgb "#56B4E9" dt 2 title "max (t_{min})", \
    "" index 4 using 1:5 with lines lc rgb "#E69F00" dt 2 title "min (t_{max})", \
    "" index 4 using 1:3 with lines lc rgb "#000000" lw 1.5 title "model", \
    "" index 4 using 1:2 with points pt 7 ps 1 lc rgb "#D55E00" title "measured"
  set title 'ratio\_read 0.75'
  unset ylabel
  unset key
  plot "hybrid-sweep.dat" index 5 using 1:4 with lines lc rgb "#56B4E9" dt 2 title "max (t_{min})", \
    "" index 5 using 1:5 with lines lc rgb "#E69F00" dt 2 title "min (t_{max})", \
    "" index 5 using 1:3 with lines lc rgb "#000000" lw 1.5 title "model", \
    "" index 5 using 1:2 with points pt 7 ps 1 lc rgb "#D55E00" title "measured"
  set title 'ratio\_read 1.00'
  unset ylabel
  unset key
  plot "hybrid-sweep.dat" index 6 using 1:4 with lines lc rgb "#56B4E9" dt 2 title "max (t_{min})", \
    "" index 6 using 1:5 with lines lc rgb "#E69F00" dt 2 title "min (t_{max})", \
    "" index 6 using 1:3 with lines lc rgb "#000000" lw 1.5 title "model", \
    "" index 6 using 1:2 with points pt 7 ps 1 lc rgb "#D55E00" title "measured"
  unset multiplot
  set output
}
