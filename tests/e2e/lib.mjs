// Shared harness of the end-to-end flows: steps with one screenshot each, a log of what the
// browser saw go wrong (console errors, failed requests), the REST API helper and a PNG maker.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export const env = {
  volto: process.env.WCS_E2E_VOLTO || 'http://localhost:53000',
  backend: process.env.WCS_E2E_BACKEND || 'http://127.0.0.1:55080',
  password: process.env.WCS_E2E_ADMIN_PASSWORD || 'admin',
  shots: process.env.WCS_E2E_SCREENSHOTS || 'e2e-screenshots',
  chromium: process.env.WCS_E2E_CHROMIUM || '/usr/bin/chromium',
  only: process.env.WCS_E2E_ONLY || '',
};
export const SITE = `${env.backend}/Plone`;

let shotCounter = 0;
export const results = []; // {flow, step, ok, ms, error, problems}

export class StepFailed extends Error {}

// A short, stable name for files.
const slug = (s) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);

// Watches a page for what the browser reports as going wrong while a step runs.
function watch(page) {
  const problems = [];
  const pending = [];
  const onConsole = (msg) => {
    if (msg.type() === 'error') {
      const loc = msg.location();
      problems.push(`console error: ${msg.text()}${loc?.url ? ` (${loc.url})` : ''}`);
    }
  };
  const onPageError = (err) => problems.push(`page error: ${err.message}`);
  const onResponse = (res) => {
    const status = res.status();
    if (status < 400) return;
    const req = res.request();
    const entry = { method: req.method(), url: res.url(), status, body: '', request: '' };
    const post = req.postData();
    if (post) entry.request = post.length > 600 ? `${post.slice(0, 600)}…` : post;
    problems.push(entry);
    pending.push(
      res
        .text()
        .then((t) => {
          entry.body = t.length > 600 ? `${t.slice(0, 600)}…` : t;
        })
        .catch(() => {}),
    );
  };
  const onFailed = (req) => {
    const f = req.failure()?.errorText || 'failed';
    if (f === 'net::ERR_ABORTED') return; // navigations away, cancelled fetches
    problems.push(`request failed: ${req.method()} ${req.url()} ${f}`);
  };
  page.on('console', onConsole);
  page.on('pageerror', onPageError);
  page.on('response', onResponse);
  page.on('requestfailed', onFailed);
  return {
    async stop() {
      page.off('console', onConsole);
      page.off('pageerror', onPageError);
      page.off('response', onResponse);
      page.off('requestfailed', onFailed);
      await Promise.race([Promise.all(pending), new Promise((r) => setTimeout(r, 2000))]);
      return problems.map((p) =>
        typeof p === 'string'
          ? p
          : `HTTP ${p.status} ${p.method} ${p.url}${p.request ? `\n      request: ${p.request}` : ''}${
              p.body ? `\n      answer: ${p.body.replace(/\s+/g, ' ')}` : ''
            }`,
      );
    },
  };
}

// Runs one step: the screenshot is taken after it, also (as …-FAILED) when it fails.
export async function step(flow, page, name, fn) {
  const n = String(++shotCounter).padStart(2, '0');
  const file = path.join(env.shots, `${n}-${slug(flow)}--${slug(name)}`);
  const t0 = Date.now();
  const w = watch(page);
  let error = null;
  let value;
  try {
    value = await fn();
  } catch (e) {
    error = e;
  }
  const problems = await w.stop();
  try {
    // Volto's toolbar is as high as the window: a full-page shot would stretch it; the
    // backend's own pages are plain documents, shown whole.
    const fullPage = page.url().startsWith(env.backend);
    await page.screenshot({ path: `${file}${error ? '-FAILED' : ''}.png`, fullPage });
  } catch (e) {
    problems.push(`screenshot failed: ${e.message}`);
  }
  const ms = Date.now() - t0;
  results.push({ flow, step: name, ok: !error, ms, error: error?.message, problems, n });
  const mark = error ? 'FAIL' : ' ok ';
  console.log(`  [${mark}] ${n} ${name} (${(ms / 1000).toFixed(1)}s)`);
  if (error) {
    console.log(`         ${String(error.message).split('\n').join('\n         ')}`);
  }
  if (problems.length) {
    const shown = problems.slice(0, 12);
    console.log(`         the browser saw:\n         - ${shown.join('\n         - ')}`);
    if (problems.length > shown.length) console.log(`         … and ${problems.length - shown.length} more`);
  }
  if (error) throw new StepFailed(`${flow}: ${name}: ${error.message}`);
  return value;
}

export function assert(cond, message) {
  if (!cond) throw new Error(message);
}

// Waits for an element whose text contains `text`; answers the element.
export async function waitText(page, selector, text, timeout = 15000) {
  try {
    const h = await page.waitForFunction(
      (sel, t) => [...document.querySelectorAll(sel)].find((e) => e.textContent.includes(t)),
      { timeout },
      selector,
      text,
    );
    return h.asElement();
  } catch (e) {
    const seen = await page
      .$$eval(selector, (els) => els.map((e) => e.textContent.trim().slice(0, 80)))
      .catch(() => []);
    throw new Error(
      `no ${selector} containing ${JSON.stringify(text)} within ${timeout} ms at ${page.url()}` +
        (seen.length ? `; there are: ${JSON.stringify(seen.slice(0, 8))}` : `; there is no ${selector}`),
    );
  }
}

export async function waitSel(page, selector, timeout = 15000) {
  try {
    return await page.waitForSelector(selector, { timeout });
  } catch (e) {
    const title = await page.title().catch(() => '');
    const h1 = await page.$eval('h1', (e) => e.textContent.trim()).catch(() => '');
    throw new Error(
      `no ${selector} within ${timeout} ms at ${page.url()} (title ${JSON.stringify(title)}, h1 ${JSON.stringify(h1)})`,
    );
  }
}

// Clicks the first element matching selector whose text is exactly (trimmed) `text`.
export async function clickText(page, selector, text, timeout = 10000) {
  const h = await page
    .waitForFunction(
      (sel, t) => [...document.querySelectorAll(sel)].find((e) => e.textContent.trim() === t),
      { timeout },
      selector,
      text,
    )
    .catch(async () => {
      const seen = await page.$$eval(selector, (els) => els.map((e) => e.textContent.trim())).catch(() => []);
      throw new Error(`no ${selector} with text ${JSON.stringify(text)}; there are ${JSON.stringify(seen.slice(0, 15))}`);
    });
  await h.asElement().click();
}

// --- the REST API of the backend, as admin with Basic auth ------------------------------------
export async function api(method, urlPath, body, { expect = [200, 201, 204] } = {}) {
  const url = urlPath.startsWith('http') ? urlPath : `${SITE}${urlPath}`;
  const res = await fetch(url, {
    method,
    headers: {
      Accept: 'application/json',
      ...(body ? { 'Content-Type': 'application/json' } : {}),
      Authorization: `Basic ${Buffer.from(`admin:${env.password}`).toString('base64')}`,
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!expect.includes(res.status)) {
    throw new Error(
      `REST ${method} ${url}${body ? ` with ${JSON.stringify(body).slice(0, 400)}` : ''} answered ${
        res.status
      }: ${text.slice(0, 600)}`,
    );
  }
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
}

// Path of a backend @id below the site: http://…/Plone/a/b -> /a/b
export const sitePath = (id) => new URL(id).pathname.replace(/^\/Plone/, '') || '/';

export const uuid = () => crypto.randomUUID();

export const slatePara = (text) => ({
  '@type': 'slate',
  value: [{ type: 'p', children: [{ text }] }],
  plaintext: text,
});

// --- a small PNG, made here so the tests need no fixture files --------------------------------
const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
// A width×height RGB gradient with a dark diagonal, written to `file`.
export function writePng(file, width = 160, height = 100) {
  const rows = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      const onLine = Math.abs(x * height - y * width) < width * 2;
      row[1 + x * 3] = onLine ? 20 : Math.round((255 * x) / width);
      row[2 + x * 3] = onLine ? 20 : Math.round((255 * y) / height);
      row[3 + x * 3] = onLine ? 20 : 160;
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  fs.writeFileSync(file, png);
  return file;
}
