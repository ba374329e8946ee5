// The interactive roofline of larm's HTML report: one uPlot chart per domain, from the data larm
// wrote into the page (#larm-roofline-data). Every text shown on hover is larm's own (the same as
// the report's tables); this script only lays the series out for uPlot and finds what the cursor
// is on. Charts are kept in window.larmRoofline for the browser test.
(function () {
  'use strict';
  const source = document.getElementById('larm-roofline-data');
  if (!source || typeof uPlot === 'undefined') return;
  const data = JSON.parse(source.textContent);
  // Roofs in the LARM figure's order of colours; regions in colours no roof uses.
  const roofColours = ['#1f77b4', '#2ca02c', '#ff7f0e', '#17becf', '#8c564b', '#bcbd22',
                       '#7f7f7f', '#393b79', '#637939', '#8c6d31', '#843c39', '#5254a3'];
  const regionColours = ['#d62728', '#9467bd', '#e377c2', '#000000', '#ad494a', '#7b4173'];
  // The i-th roof's colour: the palette, then hues a golden angle apart at a darker, duller
  // lightness than the regions' colours, so that no two roofs of a chart share one.
  function roofColour(i) {
    if (i < roofColours.length) return roofColours[i];
    const k = i - roofColours.length;
    const hue = Math.round((k * 137.508 + 200) % 360);
    const lightness = 28 + 14 * (Math.floor(k / 3) % 3);
    return 'hsl(' + hue + ', 45%, ' + lightness + '%)';
  }
  // A tick on a log axis with three significant digits at most ("12.8", not "12.832").
  function tickText(v) {
    if (v == null) return '';
    const a = Math.abs(v);
    if (a >= 1000) return String(Math.round(v));
    return String(Number(v.toPrecision(3)));
  }
  const charts = [];
  // The AI range of the LARM figure, in FLOP/byte.
  const aiLow = 1 / 64;
  const aiHigh = 64;

  for (const domain of data.domains) {
    const host = document.getElementById('larm-roofline-' + domain.domain);
    if (!host) continue;
    const grid = new Set();
    for (let i = 0; i <= 120; i++) grid.add(aiLow * Math.pow(aiHigh / aiLow, i / 120));
    for (const r of domain.regions) {
      grid.add(r.ai);
      for (const l of r.levels || []) grid.add(l.ai);
    }
    const x = Array.from(grid).sort(function (a, b) { return a - b; });
    // A bandwidth roof stops at the highest ceiling, as in the static figure.
    let top = 0;  // none: the slopes run across the figure
    for (const r of domain.roofs) if (!r.slope) top = Math.max(top, r.value);

    const columns = [x];
    const series = [{ label: 'AI (FLOP/byte)' }];
    const texts = [''];
    domain.roofs.forEach(function (roof, i) {
      columns.push(x.map(function (ai) { return !roof.slope ? roof.value : top > 0 ? Math.min(ai * roof.value, top) : ai * roof.value; }));
      series.push({
        label: roof.name,
        stroke: roofColour(i),
        width: roof.slope ? 2 : 1.5,
        dash: roof.slope ? undefined : [6, 4],
        points: { show: false },
      });
      texts.push(roof.text);
    });
    domain.regions.forEach(function (region, i) {
      columns.push(x.map(function (ai) { return ai === region.ai ? region.gflops : null; }));
      series.push({
        label: region.name,
        stroke: regionColours[i % regionColours.length],
        paths: function () { return null; },
        points: { show: true, size: 10, fill: regionColours[i % regionColours.length] },
      });
      texts.push(region.text);
    });
    // Each region again at its L2, L3 and memory intensity (larm count's cache model), smaller,
    // in its colour: the points its verdict sets against those levels' roofs.
    domain.regions.forEach(function (region, i) {
      const levels = region.levels || [];
      if (!levels.length) return;
      columns.push(x.map(function (ai) {
        return levels.some(function (l) { return l.ai === ai; }) ? region.gflops : null;
      }));
      series.push({
        label: region.name + ' per level',
        stroke: regionColours[i % regionColours.length],
        paths: function () { return null; },
        points: { show: true, size: 6, fill: '#ffffff' },
      });
      texts.push(region.text + ' \u2014 at the intensity of ' +
                 levels.map(function (l) { return l.level; }).join(', ') + ' (cache model)');
    });

    const tip = document.createElement('div');
    tip.className = 'larm-tip';
    tip.textContent = '\u00a0';
    const width = Math.max(320, Math.min(host.clientWidth || 900, 1000));
    const chart = new uPlot({
      width: width,
      height: Math.round(width * 0.55),
      scales: { x: { distr: 3, time: false }, y: { distr: 3 } },
      axes: [{ label: 'arithmetic intensity (FLOP/byte)',
               values: function (u, splits) { return splits.map(tickText); } },
             { label: 'GFLOP/s (' + data.precision + ', ' + data.estimator + ' roofs)', size: 70,
               values: function (u, splits) { return splits.map(tickText); } }],
      cursor: { drag: { x: true, y: true, uni: 30 }, focus: { prox: 16 } },
      focus: { alpha: 0.35 },
      legend: { live: false },
      series: series,
      hooks: {
        // What the cursor is on: the nearest drawn series at its AI, within 12 pixels.
        setCursor: [function (u) {
          const idx = u.cursor.idx;
          let best = -1;
          let bestDistance = 12;
          if (idx != null && u.cursor.top != null && u.cursor.top >= 0) {
            for (let s = 1; s < u.series.length; s++) {
              const y = u.data[s][idx];
              if (!u.series[s].show || y == null) continue;
              const distance = Math.abs(u.valToPos(y, 'y') - u.cursor.top);
              if (distance < bestDistance) { bestDistance = distance; best = s; }
            }
          }
          if (best < 0) { tip.textContent = '\u00a0'; return; }
          const y = u.data[best][idx];
          const isRoof = best <= domain.roofs.length;
          tip.textContent = texts[best] +
            (isRoof ? ' \u2014 at AI ' + u.data[0][idx].toPrecision(3) + ': ' +
                      y.toPrecision(4) + ' GFLOP/s' : '');
          tip.dataset.series = String(best);
        }],
      },
    }, columns, host);
    // Above the chart, where the eye is while the mouse moves on it.
    host.insertBefore(tip, chart.root);
    charts.push({ domain: domain.domain, chart: chart, tip: tip, roofs: domain.roofs.length });
  }
  window.larmRoofline = charts;
})();
