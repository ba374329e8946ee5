# Memory bandwidth, domain x memory (load, GB/s)
# Written by larm plot; rerun with: gnuplot matrix-bandwidth.gp (formats: edit the list below).
formats = "svg"
if (!exists("larm_partial")) larm_partial = ""
do for [fmt in formats] {
  if (fmt eq "png") { set terminal pngcairo enhanced size 1320,640 font "Sans,19.5" linewidth 2.5; base = 19.5 }
  if (fmt eq "svg") { set terminal svg enhanced size 660,320 font "Sans,13" linewidth 1.2 background "white"; base = 13 }
  if (fmt eq "pdf") { set terminal pdfcairo enhanced size 6.6in,3.2in font "Sans,8" linewidth 1.5; base = 8 }
  set output 'matrix-bandwidth.'.fmt.larm_partial
  reset
  small = sprintf(",%g", base * 0.8)
  tiny = sprintf(",%g", base * 0.75)
  set palette defined (0 "#f7fbff", 1 "#6baed6", 2 "#08306b")
  set cblabel "GB/s"
  set cbrange [0:132.225]
  set cbtics font small
  unset key
  set view map
  set xrange [-0.5:7.5]
  set yrange [3.5:-0.5]
  set xlabel "Memory (OS index, kind)"
  set ylabel "Domain"
  set xtics ('0 DRAM' 0, '1 HBM' 1, '2 DRAM' 2, '3 HBM' 3, '4 DRAM' 4, '5 HBM' 5, '6 DRAM' 6, '7 HBM' 7)
  set ytics ("0" 0, "1" 1, "2" 2, "3" 3)
  set title 'Memory bandwidth (load)'
  plot "matrix-bandwidth.dat" using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder lc palette, \
    "" using 1:2:4:($3 > 66.1123 ? 0xffffff : 0x000000) with labels font small tc rgb variable
  unset multiplot
  set output
}
