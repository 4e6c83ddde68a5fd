// Opens an HTML report in a real headless Chromium and prints what a person would see, as JSON
// on stdout, for tests/e2e/test_e2e_html.cpp to assert on. Node built-ins only: Chromium is
// driven through the DevTools protocol over --remote-debugging-pipe (the transport Playwright
// itself uses), so the test needs no npm package and no WebSocket client.
//
//   node html_browser.mjs --chromium /usr/bin/chromium --page /abs/report.html \
//        --screenshot out.png [--width 1200] [--height 900] [--dark] [--interact] [--pdf out.pdf]
//
// Reports: console errors and uncaught exceptions, every network request, the load time, each
// finding's chart (present, drawn size, marks), the lazily drawn charts, and a screenshot's
// pixel statistics (decoded here from the PNG with zlib). With --interact it also exercises the
// series filter and the tap-to-show tooltip; with --pdf it prints the page.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inflateSync } from 'node:zlib';

const args = Object.create(null);
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (!a.startsWith('--')) continue;
  const next = process.argv[i + 1];
  if (next === undefined || next.startsWith('--')) args[a.slice(2)] = true;
  else { args[a.slice(2)] = next; i++; }
}
const width = Number(args.width || 1200), height = Number(args.height || 900);
const pageUrl = pathToFileURL(args.page).href;
const profile = mkdtempSync(join(tmpdir(), 'bh-chromium-'));

// The flags proven on these machines (ENVIRONMENT.md): headless, no sandbox as root, and no
// background networking, so the only requests are the ones the page itself makes.
const chrome = spawn(args.chromium, [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic', '--hide-scrollbars', '--mute-audio',
  `--user-data-dir=${profile}`, '--remote-debugging-pipe', 'about:blank',
], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
let chromeStderr = '';
chrome.stderr.on('data', (d) => { chromeStderr += d; });

const toBrowser = chrome.stdio[3], fromBrowser = chrome.stdio[4];
let nextId = 1, buffer = Buffer.alloc(0);
const pending = new Map(), listeners = [];
fromBrowser.on('data', (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (let end = buffer.indexOf(0); end >= 0; end = buffer.indexOf(0)) {
    const msg = JSON.parse(buffer.subarray(0, end).toString('utf8'));
    buffer = buffer.subarray(end + 1);
    if (msg.id !== undefined && pending.has(msg.id)) {
      const { resolve, reject } = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) reject(new Error(`${msg.error.message} (${msg.error.code})`)); else resolve(msg.result);
    } else {
      for (const l of listeners) l(msg);
    }
  }
});
function send(method, params = {}, sessionId) {
  const id = nextId++;
  const msg = { id, method, params };
  if (sessionId) msg.sessionId = sessionId;
  toBrowser.write(JSON.stringify(msg) + '\0');
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}
function waitFor(pred, ms, what) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
    listeners.push((m) => { if (pred(m)) { clearTimeout(timer); resolve(m); } });
  });
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---- PNG decoding (8-bit RGB or RGBA, as Chromium writes them) ----------------------------
function decodePng(buf) {
  let pos = 8, w = 0, h = 0, type = 0, depth = 0;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos), kind = buf.toString('ascii', pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (kind === 'IHDR') { w = data.readUInt32BE(0); h = data.readUInt32BE(4); depth = data[8]; type = data[9]; }
    if (kind === 'IDAT') idat.push(data);
    pos += 12 + len;
  }
  if (depth !== 8 || (type !== 2 && type !== 6)) throw new Error(`unexpected PNG format depth ${depth} type ${type}`);
  const bpp = type === 6 ? 4 : 3, stride = w * bpp, raw = inflateSync(Buffer.concat(idat));
  const px = Buffer.alloc(h * stride);
  for (let y = 0; y < h; y++) {
    const f = raw[y * (stride + 1)], line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? px[y * stride + x - bpp] : 0, b = y > 0 ? px[(y - 1) * stride + x] : 0;
      const c = x >= bpp && y > 0 ? px[(y - 1) * stride + x - bpp] : 0;
      let v = line[x];
      if (f === 1) v += a; else if (f === 2) v += b; else if (f === 3) v += (a + b) >> 1;
      else if (f === 4) { const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c); v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c; }
      px[y * stride + x] = v & 255;
    }
  }
  const at = (x, y) => { const i = y * stride + x * bpp; return [px[i], px[i + 1], px[i + 2]]; };
  const bg = at(0, 0), colors = new Set();
  let differing = 0;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const p = at(x, y);
    if (Math.abs(p[0] - bg[0]) + Math.abs(p[1] - bg[1]) + Math.abs(p[2] - bg[2]) > 30) differing++;
    if (colors.size < 5000) colors.add((p[0] << 16) | (p[1] << 8) | p[2]);
  }
  return { width: w, height: h, background: bg, distinctColors: colors.size, nonBackgroundFraction: differing / (w * h) };
}

// ---- the run -------------------------------------------------------------------------------
const result = { consoleErrors: [], exceptions: [], requests: [], findings: [], compact: {}, lazy: {} };
async function main() {
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  listeners.push((m) => {
    if (m.sessionId !== sessionId) return;
    if (m.method === 'Runtime.consoleAPICalled' && (m.params.type === 'error' || m.params.type === 'assert'))
      result.consoleErrors.push(m.params.args.map((a) => a.value ?? a.description ?? '').join(' '));
    if (m.method === 'Runtime.exceptionThrown')
      result.exceptions.push(m.params.exceptionDetails.exception?.description || m.params.exceptionDetails.text);
    if (m.method === 'Log.entryAdded' && m.params.entry.level === 'error')
      result.consoleErrors.push(`${m.params.entry.source}: ${m.params.entry.text} ${m.params.entry.url || ''}`);
    if (m.method === 'Network.requestWillBeSent') result.requests.push(m.params.request.url);
  });
  for (const d of ['Runtime.enable', 'Log.enable', 'Network.enable', 'Page.enable']) await send(d, {}, sessionId);
  await send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: width < 600 }, sessionId);
  await send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: args.dark ? 'dark' : 'light' }] }, sessionId);

  const loaded = waitFor((m) => m.sessionId === sessionId && m.method === 'Page.loadEventFired', 60000, 'the load event');
  const started = Date.now();
  await send('Page.navigate', { url: pageUrl }, sessionId);
  await loaded;
  result.loadMs = Date.now() - started;
  const evaluate = async (expression) => {
    const r = await send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true }, sessionId);
    if (r.exceptionDetails) throw new Error(`page evaluation failed: ${r.exceptionDetails.text}`);
    return r.result.value;
  };
  result.title = await evaluate('document.title');
  result.outcome = await evaluate("(document.getElementById('outcome')||{}).textContent||null");
  result.findings = await evaluate(`Array.from(document.querySelectorAll('article.finding')).map(a => {
    const svg = a.querySelector('figure.plot > svg'), r = svg ? svg.getBoundingClientRect() : null;
    return { id: a.id, bench: (a.querySelector('.fhead code')||{}).textContent, chart: !!svg,
             width: r ? r.width : 0, height: r ? r.height : 0,
             marks: svg ? svg.querySelectorAll('circle.c-pt').length : 0,
             dirtyMarks: svg ? svg.querySelectorAll('circle.c-pt.dirty').length : 0,
             tipMarks: svg ? svg.querySelectorAll('circle.c-pt.tip').length : 0,
             lines: svg ? svg.querySelectorAll('path.c-line').length : 0,
             bands: svg ? svg.querySelectorAll('rect.c-band').length : 0,
             blessings: svg ? svg.querySelectorAll('line.c-blessing').length : 0,
             splits: svg ? svg.querySelectorAll('line.c-split').length : 0,
             tooltip: svg && svg.querySelector('circle.c-pt > title') ? svg.querySelector('circle.c-pt > title').textContent : null,
             compact: !!a.querySelector('.compact') };
  })`);
  result.background = await evaluate('getComputedStyle(document.body).backgroundColor');
  result.lazy.total = await evaluate("document.querySelectorAll('[data-d]').length");
  result.lazy.drawnAtLoad = await evaluate("document.querySelectorAll('[data-drawn]').length");

  const shot = await send('Page.captureScreenshot', { format: 'png' }, sessionId);
  const png = Buffer.from(shot.data, 'base64');
  if (args.screenshot) writeFileSync(args.screenshot, png);
  result.screenshot = decodePng(png);

  if (args.pdf) {
    // Printing: the lazily drawn charts must all be drawn before the page is laid out for paper.
    const pdf = await send('Page.printToPDF', { printBackground: false, preferCSSPageSize: false }, sessionId);
    const bytes = Buffer.from(pdf.data, 'base64');
    writeFileSync(args.pdf, bytes);
    const text = bytes.toString('latin1');
    result.pdf = { bytes: bytes.length, pages: (text.match(/\/Type\s*\/Page[^s]/g) || []).length,
                   drawnAfterPrint: await evaluate("document.querySelectorAll('[data-drawn]').length") };
  }
  if (args.interact) {
    // Scroll through the page so every lazily drawn chart comes into view, then check them.
    await evaluate(`(async () => { const step = innerHeight; for (let y = 0; y <= document.body.scrollHeight; y += step) {
      scrollTo(0, y); await new Promise(r => requestAnimationFrame(() => setTimeout(r, 30))); } return true; })()`);
    await sleep(200);
    result.lazy.drawnAfterScroll = await evaluate("document.querySelectorAll('[data-drawn]').length");
    result.lazy.emptyDrawn = await evaluate(`Array.from(document.querySelectorAll('[data-drawn] svg path')).filter(p => {
      const b = p.getBBox(); return !(b.width > 0 || b.height > 0); }).length`);
    result.filter = await evaluate(`(() => { const f = document.getElementById('filter'); if (!f) return null;
      const rows = document.querySelectorAll('#series tbody tr'); const all = rows.length; const visible = () =>
        Array.from(rows).filter(r => !r.hidden).length;
      f.value = ${JSON.stringify(String(args.filter || 'zzz-no-such-series'))}; f.dispatchEvent(new Event('input'));
      const filtered = visible(), shown = document.getElementById('shown').textContent;
      f.value = ''; f.dispatchEvent(new Event('input'));
      return { hidden: f.hidden, all, filtered, shown, restored: visible() }; })()`);
    result.tap = await evaluate(`(() => { const c = document.querySelector('figure.plot circle.c-pt'); if (!c) return null;
      c.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      return c.closest('figure').querySelector('output.pick').textContent; })()`);
  }
  await send('Browser.close');
}

const watchdog = setTimeout(() => { result.fatal = 'timed out after 120 s'; finish(2); }, 120000);
function finish(code) {
  clearTimeout(watchdog);
  try { chrome.kill('SIGKILL'); } catch (e) { /* already gone */ }
  try { rmSync(profile, { recursive: true, force: true }); } catch (e) { /* best effort */ }
  if (code) result.chromiumStderr = chromeStderr.slice(-4000);
  process.stdout.write(JSON.stringify(result) + '\n');
  process.exit(code);
}
main().then(() => finish(0), (e) => { result.fatal = String(e && e.stack || e); finish(1); });
