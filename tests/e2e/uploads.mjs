// A large file through Volto: an editor adds a File of 30 MB with Volto's add form (Volto
// sends it base64-encoded in the JSON body, as it does every file), and the server keeps every
// byte.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { env, SITE, assert, waitSel, api, sitePath } from './lib.mjs';
import { voltoLogin, save } from './volto.mjs';

const V = env.volto;
const SIZE = 30 * 1024 * 1024;

// A file of SIZE bytes that is not all one byte (so nothing on the way can shrink it).
function largeFile(dir, RUN) {
  const file = path.join(dir, `e2e-large-${RUN}.bin`);
  const bytes = Buffer.alloc(SIZE);
  for (let i = 0; i < SIZE; i += 4) bytes.writeUInt32LE((i * 2654435761) >>> 0, i);
  fs.writeFileSync(file, bytes);
  return { file, last: bytes.subarray(SIZE - 16).toString('hex') };
}

export function addUploadFlows(flow, RUN) {
  flow('editor uploads a large file', async (page, s) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-e2e-large-'));
    const title = `E2E large file ${RUN}`;
    try {
      const { file, last } = largeFile(dir, RUN);
      await s('logs in and opens the add form of a File', async () => {
        await voltoLogin(page);
        await page.goto(`${V}/add?type=File`, { waitUntil: 'networkidle2' });
        await waitSel(page, '#field-title', 30000);
      });
      await s('fills in the title and picks the 30 MB file', async () => {
        await page.type('#field-title', title);
        const input = await waitSel(page, 'input[type="file"]');
        await input.uploadFile(file);
        // Volto reads the file into the form before it can be saved.
        await page.waitForFunction(
          (name) => document.body.textContent.includes(name),
          { timeout: 60000 },
          path.basename(file),
        );
      });
      await s('saves, and the server holds every byte', async () => {
        await save(page);
        const found = await api('GET', `/@search?portal_type=File&SearchableText=${encodeURIComponent(`large file ${RUN}`)}`);
        assert(found.items_total === 1, `the search finds ${found.items_total} files titled ${title}`);
        const p = sitePath(found.items[0]['@id']);
        const obj = await api('GET', p);
        assert(obj.file.size === SIZE, `the stored file has ${obj.file.size} bytes, not ${SIZE}`);
        const download = await fetch(`${SITE}${p}/@@download/file`, {
          headers: { Authorization: `Basic ${Buffer.from(`admin:${env.password}`).toString('base64')}` },
        });
        const body = Buffer.from(await download.arrayBuffer());
        assert(body.length === SIZE, `the download has ${body.length} bytes`);
        assert(body.subarray(SIZE - 16).toString('hex') === last, 'the last bytes differ from the file sent');
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}
