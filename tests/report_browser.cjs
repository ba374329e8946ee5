// Drives report.html's interactive roofline in headless Chromium through the DevTools protocol
// (puppeteer-core, against Debian's chromium): a real mouse hovers a roof and a region point and
// the page must show larm's text for them (value and interval, verdict); a click on a key entry
// must hide its roof (no longer found under the mouse); a drag must zoom. Prints one line per
// check; exits 1 on the first failure.
// First the page's first screen as a user opens it (1280 x 800, top): the summary must be there,
// from the node's line to the next command, and its picture goes to FIRST_SCREEN_PNG (given:
// docs/images/report-first-screen.png is made by scripts/report_screenshot.sh this way). Every
// series of a chart is drawn in its own colour.
//   node report_browser.cjs REPORT_HTML CHROMIUM SCREENSHOT_PNG [FIRST_SCREEN_PNG]
'use strict';
const puppeteer = require('puppeteer-core');

const [reportHtml, chromium, screenshot, firstScreen] = process.argv.slice(2);

function check(ok, what) {
  console.log((ok ? 'ok: ' : 'FAILED: ') + what);
  if (!ok) process.exitCode = 1;
  return ok;
}

// Where a series' value at data index idx is on the page, in CSS pixels.
async function pagePoint(page, chart, series, idx) {
  return page.evaluate((c, s, i) => {
    const u = window.larmRoofline[c].chart;
    const box = u.over.getBoundingClientRect();
    return { x: box.left + u.valToPos(u.data[0][i], 'x'), y: box.top + u.valToPos(u.data[s][i], 'y') };
  }, chart, series, idx);
}

async function tip(page, chart) {
  return page.evaluate((c) => window.larmRoofline[c].tip.textContent, chart);
}

(async () => {
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
    timeout: 60000,
  });
  try {
    // The first screen: the summary's rows, the last of them the next command, above the fold.
    const first = await browser.newPage();
    await first.setViewport({ width: 1280, height: 800 });
    await first.goto('file://' + reportHtml, { waitUntil: 'load', timeout: 60000 });
    const rows = await first.evaluate(() => Array.from(document.querySelectorAll('#summary-table tr')).map(
      (tr) => ({ label: tr.querySelector('th').textContent, bottom: tr.getBoundingClientRect().bottom })));
    const nodeLine = await first.evaluate(() => {
      const p = document.querySelector('p.node');
      return p ? p.getBoundingClientRect().bottom : 1e9;
    });
    check(nodeLine <= 800, 'the first screen shows the node in one line');
    for (const wanted of ['cache bandwidth', 'FLOP ceilings', 'memory bandwidth', 'next']) {
      const row = rows.find((r) => r.label.startsWith(wanted));
      check(row !== undefined && row.bottom <= 800,
            `the first screen shows the summary's "${wanted}" row` + (row ? ` (bottom at ${Math.round(row.bottom)} px)` : ''));
    }
    if (firstScreen) await first.screenshot({ path: firstScreen });
    await first.close();

    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('requestfailed', (r) => errors.push('request ' + r.url()));
    await page.goto('file://' + reportHtml, { waitUntil: 'load', timeout: 60000 });
    const data = await page.evaluate(() => JSON.parse(document.getElementById('larm-roofline-data').textContent));
    const charts = await page.evaluate(() => (window.larmRoofline || []).length);
    if (!check(charts === data.domains.length && charts > 0, `${charts} charts for ${data.domains.length} domains`)) return;
    check(errors.length === 0, 'no script error and no request: ' + errors.join('; '));
    // No two series of a chart in one colour: a reader matches a line to its key entry by it.
    const strokes = await page.evaluate(() => window.larmRoofline.map((c) => c.chart.series.slice(1)
      .map((s, i) => [s, i + 1]).filter(([s]) => !s.label.endsWith(' per level'))
      .map(([s, i]) => String(typeof s.stroke === 'function' ? s.stroke(c.chart, i) : s.stroke))));
    strokes.forEach((list, c) => check(new Set(list).size === list.length,
                                        `chart ${c}: ${list.length} series in ${new Set(list).size} colours`));

    // The first bandwidth roof, hovered where it climbs (a third along the AI range).
    const domain = data.domains[0];
    const roof = domain.roofs.findIndex((r) => r.slope);
    check(roof >= 0, 'a bandwidth roof is drawn');
    const idx = await page.evaluate(() => Math.floor(window.larmRoofline[0].chart.data[0].length / 3));
    const at = await pagePoint(page, 0, roof + 1, idx);
    await page.evaluate((y) => window.scrollTo(0, Math.max(0, y - 400)), at.y);
    const point = await pagePoint(page, 0, roof + 1, idx);
    await page.mouse.move(point.x, point.y);
    const shown = await tip(page, 0);
    check(shown.startsWith(domain.roofs[roof].text), `hover on ${domain.roofs[roof].name}: "${shown}"`);
    check(/±\d|interval|2 modes/.test(shown), 'the hover names the interval');

    // A region point, when the page has one.
    if (domain.regions.length) {
      const series = domain.roofs.length + 1;
      const ridx = await page.evaluate((s) => window.larmRoofline[0].chart.data[s].findIndex((v) => v != null), series);
      const p = await pagePoint(page, 0, series, ridx);
      await page.mouse.move(p.x, p.y);
      const text = await tip(page, 0);
      check(text.startsWith(domain.regions[0].text) || domain.regions.some((r) => text.startsWith(r.text)),
            `hover on region ${domain.regions[0].name}: "${text}"`);
      // The box shows all of its text: nothing cut off or scrolled away.
      const fits = await page.evaluate(() => {
        const t = window.larmRoofline[0].tip;
        return t.scrollHeight <= t.clientHeight + 1 && t.scrollWidth <= t.clientWidth + 1;
      });
      check(fits, 'the tooltip shows its whole text');
    }
    await page.screenshot({ path: screenshot });

    // The key entry of that roof hides it: the mouse on its line no longer finds it.
    const entries = await page.$$('#larm-roofline-' + domain.domain + ' .u-legend .u-series');
    let entry = null;
    for (const e of entries) {
      if ((await e.evaluate((n) => n.textContent.trim())) === domain.roofs[roof].name) entry = e;
    }
    if (!check(entry !== null, `a key entry for ${domain.roofs[roof].name}`)) return;
    await entry.click();
    const hidden = await page.evaluate((s) => !window.larmRoofline[0].chart.series[s].show, roof + 1);
    check(hidden, `a click on the key entry of ${domain.roofs[roof].name} hides it`);
    await page.mouse.move(point.x + 1, point.y);
    await page.mouse.move(point.x, point.y);
    const after = await tip(page, 0);
    check(!after.startsWith(domain.roofs[roof].text), `the hidden roof is not found under the mouse: "${after}"`);

    // A drag zooms the AI axis.
    const before = await page.evaluate(() => { const s = window.larmRoofline[0].chart.scales.x; return [s.min, s.max]; });
    const box = await page.evaluate(() => { const b = window.larmRoofline[0].chart.over.getBoundingClientRect(); return { x: b.left, y: b.top, w: b.width, h: b.height }; });
    await page.mouse.move(box.x + box.w * 0.3, box.y + box.h * 0.3);
    await page.mouse.down();
    await page.mouse.move(box.x + box.w * 0.6, box.y + box.h * 0.7, { steps: 8 });
    await page.mouse.up();
    const zoomed = await page.evaluate(() => { const s = window.larmRoofline[0].chart.scales.x; return [s.min, s.max]; });
    check(zoomed[0] > before[0] && zoomed[1] < before[1], `drag zooms: x ${before} -> ${zoomed}`);
  } finally {
    await browser.close();
  }
})().catch((e) => { console.log('FAILED: ' + e); process.exitCode = 1; });
