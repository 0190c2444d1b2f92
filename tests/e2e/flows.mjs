// The end-to-end flows: Volto 18 (proxy mode) on wcs, and the server's own HTML version views.
// Started by tests/e2e/run, which passes the addresses and the admin password in WCS_E2E_*.
// Each flow runs in its own browser context; a failing step ends its flow, the others go on.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import {
  env,
  SITE,
  results,
  step,
  assert,
  waitText,
  waitSel,
  clickText,
  api,
  sitePath,
  uuid,
  slatePara,
  writePng,
  StepFailed,
} from './lib.mjs';
import { voltoLogin, waitForView, typeInto, chooseBlock, typeTitle, firstTextBlock, save, apiPage } from './volto.mjs';
import { addVersionFlows } from './version_views.mjs';
import { addSiteSetupFlows } from './site_setup.mjs';
import { addUsersSetupFlows } from './users_setup.mjs';
import { addPanelsFlows } from './panels.mjs';
import { addCommentsFlows } from './comments.mjs';
import { addUploadFlows } from './uploads.mjs';
import { addContentRulesFlows } from './content_rules.mjs';
import { addContentTypesFlows } from './content_types.mjs';
import { addMultilingualFlows, switchSiteToLanguages } from './multilingual.mjs';

const V = env.volto;
const RUN = Date.now().toString(36); // keeps ids unique if the same site is reused
const PNG_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'wcs-e2e-'));
const PNG = writePng(path.join(PNG_DIR, 'e2e-image.png'));

// What the flows hand on to each other (only as a convenience: each can stand alone).
const shared = { addedPage: null };

// --- the flows --------------------------------------------------------------------------------
const flows = [];
const flow = (name, fn) => flows.push({ name, fn });

flow('anonymous visitor navigates', async (page, s) => {
  let target;
  await s('home page shows the site navigation', async () => {
    await page.goto(`${V}/`, { waitUntil: 'networkidle2' });
    await waitSel(page, '.logo img, .logo');
    await waitSel(page, 'nav.navigation');
    const links = await page.$$eval('nav.navigation a.item', (as) =>
      as.map((a) => ({ href: a.getAttribute('href'), text: a.textContent.trim() })),
    );
    // The demo site's topics are sections of the navigation, for anonymous visitors too.
    const topics = links.filter((l) => ['/umwelt', '/leben'].includes(l.href));
    assert(
      topics.length === 2,
      `the navigation does not show the demo topics Umwelt and Leben in der Gemeinde: ${JSON.stringify(links)}`,
    );
    target = topics[0];
    await waitSel(page, 'h1.documentFirstHeading'); // the home page's title block
  });
  await s('client-side navigation to a topic', async () => {
    await page.evaluate(() => {
      window.__e2eMarker = 'still-the-same-page';
    });
    const before = await page.$eval('h1.documentFirstHeading', (h) => h.textContent).catch(() => null);
    await (await page.$(`nav.navigation a.item[href="${target.href}"]`)).click();
    await page
      .waitForFunction(
        (href, before) => {
          const h = document.querySelector('h1.documentFirstHeading');
          return location.pathname === href && h && h.textContent !== before;
        },
        { timeout: 15000 },
        target.href,
        before,
      )
      .catch(async () => {
        const seen = await page.evaluate(() => ({
          path: location.pathname,
          h1: [...document.querySelectorAll('h1')].map((h) => `${h.className}: ${h.textContent.trim()}`),
          view: document.body.className.split(' ').filter((c) => c.startsWith('view-') || c.startsWith('contenttype-')),
        }));
        throw new Error(`no new h1.documentFirstHeading after clicking ${target.href}: ${JSON.stringify(seen)}`);
      });
    const marker = await page.evaluate(() => window.__e2eMarker);
    assert(marker === 'still-the-same-page', 'the click reloaded the page instead of navigating in the app');
    const h1 = await page.$eval('h1.documentFirstHeading', (h) => h.textContent.trim());
    assert(h1 === target.text, `the heading is ${JSON.stringify(h1)}, the link said ${JSON.stringify(target.text)}`);
  });
});

flow('anonymous visitor opens a page', async (page, s) => {
  await s('a demo ContentPage shows its title and text', async () => {
    await page.goto(`${V}/umwelt/abfall`, { waitUntil: 'networkidle2' });
    await waitText(page, 'h1.documentFirstHeading', 'Abfall und Recycling');
    await waitText(page, '#page-document, #view', 'Abfuhrtermine');
  });
});

flow('editor adds a page', async (page, s) => {
  const title = `E2E page ${RUN}`;
  const text = 'Hello from the browser, typed into a text block.';
  await s('logs in through the /login form', () => voltoLogin(page));
  await s('fills in a new Page: title, text block, image block', async () => {
    await page.goto(`${V}/add?type=Document`, { waitUntil: 'networkidle2' });
    await typeTitle(page, title);
    await typeInto(page, await firstTextBlock(page), text);
    await page.keyboard.press('Enter'); // a new, empty text block with the "+" button
    await chooseBlock(page, 'image', 'Image');
    const file = await waitSel(page, '.block.image input[type="file"]');
    await file.uploadFile(PNG);
    await page.waitForFunction(
      () => [...document.querySelectorAll('.block.image img')].some((i) => /@@images|\/image/.test(i.src)),
      { timeout: 20000 },
    );
  });
  await s('saves and sees the text and the image', async () => {
    await save(page);
    await waitText(page, 'h1.documentFirstHeading', title);
    await waitText(page, '#page-document, #view', text);
    const img = await page.waitForFunction(
      () =>
        [...document.querySelectorAll('#page-document img, #view img')].find(
          (i) => i.complete && i.naturalWidth > 0 && !i.closest('header, .logo'),
        ),
      { timeout: 15000 },
    );
    const src = await img.evaluate((i) => i.currentSrc || i.src);
    assert(src, 'the image has no source');
    shared.addedPage = new URL(page.url()).pathname;
  });
});

flow('editor edits a page', async (page, s) => {
  let p = shared.addedPage;
  const after = `Changed text ${RUN}, after editing.`;
  let before = '';
  await s('logs in', async () => {
    if (!p) {
      // The add flow failed: edit a page made through the REST API instead.
      p = (await apiPage(`e2e-edit-${RUN}`, `E2E edit ${RUN}`, [slatePara('Original text, before editing.')])).path;
    }
    await voltoLogin(page);
  });
  await s('changes the text of the page', async () => {
    await page.goto(`${V}${p}/edit`, { waitUntil: 'networkidle2' });
    const editable = await firstTextBlock(page);
    before = (await editable.evaluate((el) => el.textContent)).trim();
    assert(before, 'the page to edit has text');
    await typeInto(page, editable, after, { replace: true });
    // Save only once the editor holds exactly the new text, typed to its end.
    await page.waitForFunction((el, t) => el.textContent.trim() === t, { timeout: 15000 }, editable, after);
  });
  await s('saves and sees the change', async () => {
    await save(page);
    const view = await waitText(page, '#page-document, #view', after);
    const shown = await view.evaluate((el) => el.textContent);
    assert(!shown.includes(before), `the old text is still shown beside the new: ${JSON.stringify(shown.slice(0, 200))}`);
  });
});

flow('editor adds a listing of News', async (page, s) => {
  const title = `E2E news listing ${RUN}`;
  await s('logs in', () => voltoLogin(page));
  await s('adds a listing block with the criterion Type = News', async () => {
    await page.goto(`${V}/add?type=Document`, { waitUntil: 'networkidle2' });
    await typeTitle(page, title);
    await (await firstTextBlock(page)).click();
    await chooseBlock(page, 'listing', 'Listing');
    // Criteria, in the block's sidebar: "Add criteria" -> Type, then the value News.
    const addCriteria = '.query-widget .fields:last-of-type .react-select__control';
    await (await waitSel(page, addCriteria)).click();
    await page.keyboard.type('Type');
    await clickText(page, '.react-select__option', 'Type');
    const value = '.query-widget .fields:first-of-type > .field .react-select__control';
    await (await waitSel(page, value)).click();
    await page.keyboard.type('News');
    await clickText(page, '.react-select__option', 'News');
    // The edit form previews the listing.
    await waitSel(page, '.block.listing .listing-item', 20000);
  });
  await s('saves and the listing shows News items', async () => {
    await save(page);
    await waitSel(page, '.block.listing .listing-item', 20000);
    const items = await page.$$eval('.block.listing .listing-item', (els) => els.map((e) => e.textContent.trim()));
    assert(
      items.some((t) => /Straßenfest|Bürgerbüro|Solar prize/.test(t)),
      `the listing does not show the demo News: ${JSON.stringify(items)}`,
    );
  });
});

flow('editor searches', async (page, s) => {
  await s('logs in', () => voltoLogin(page));
  await s('types into the search box and sees results', async () => {
    await page.goto(`${V}/`, { waitUntil: 'networkidle2' });
    const box = await waitSel(page, '.searchbox input[name="SearchableText"]');
    await box.type('Abfall');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => location.pathname === '/search', { timeout: 15000 });
    await waitSel(page, '#page-search .tileItem', 15000);
    await waitText(page, '#page-search .tileHeadline', 'Abfall und Recycling');
  });
  await s('the /search page answers a query in its URL', async () => {
    await page.goto(`${V}/search?SearchableText=${encodeURIComponent('Straßenfest')}`, {
      waitUntil: 'networkidle2',
    });
    await waitText(page, '#page-search .tileHeadline', 'Straßenfest im Sommer');
  });
});

flow('editor deletes a linked page', async (page, s) => {
  let target;
  let source;
  await s('makes a target page and a page linking to it (REST API)', async () => {
    target = (await apiPage(`e2e-link-target-${RUN}`, `E2E link target ${RUN}`, [slatePara('I am linked to.')])).doc;
    const link = {
      '@type': 'slate',
      value: [
        {
          type: 'p',
          children: [
            { text: 'Read ' },
            { type: 'link', data: { url: `../resolveuid/${target.UID}` }, children: [{ text: 'the target page' }] },
            { text: '.' },
          ],
        },
      ],
      plaintext: 'Read the target page.',
    };
    source = (await apiPage(`e2e-linking-${RUN}`, `E2E linking page ${RUN}`, [link])).doc;
  });
  await s('logs in', () => voltoLogin(page));
  await s('the delete dialog in the contents view warns that a link breaks', async () => {
    await page.goto(`${V}/contents`, { waitUntil: 'networkidle2' });
    const row = `tr[aria-label$="/${target.id}"]`;
    await (await waitSel(page, `${row} td:nth-child(2) button`)).click(); // the row's checkbox
    await (await waitSel(page, 'button[aria-label="Delete"]:not([disabled])')).click();
    await waitSel(page, '.ui.modal');
    await waitText(page, '.ui.modal', 'Deleting this item breaks 1 reference', 15000);
    await waitText(page, '.ui.modal', source.title);
    await waitText(page, '.ui.modal button', 'Delete item and break links');
  });
  await s('deletes it anyway', async () => {
    await clickText(page, '.ui.modal button', 'Delete item and break links');
    await page.waitForFunction(
      (sel) => !document.querySelector(sel),
      { timeout: 15000 },
      `tr[aria-label$="/${target.id}"]`,
    );
    await api('GET', `/${target.id}`, null, { expect: [404] });
  });
  await s('the contents view shows when the linking page was modified', async () => {
    const row = `tr[aria-label$="/${source.id}"]`;
    await waitSel(page, row);
    const cells = await page.evaluate((sel) => {
      const heads = [...document.querySelectorAll('.contents table thead th, table thead th')].map((t) =>
        t.textContent.trim().toLowerCase(),
      );
      const tds = [...document.querySelector(sel).querySelectorAll('td')].map((t) => t.textContent.trim());
      return { heads, tds };
    }, row);
    const i = cells.heads.indexOf('last modified');
    assert(i >= 0, `no "Last modified" column: ${JSON.stringify(cells.heads)}`);
    assert(
      cells.tds[i] && cells.tds[i] !== 'None',
      `"Last modified" of a page made today shows ${JSON.stringify(cells.tds[i])} (row ${JSON.stringify(cells.tds)})`,
    );
  });
});

flow('editor opens sharing and history', async (page, s) => {
  let p;
  await s('logs in', async () => {
    p = (await apiPage(`e2e-sharing-${RUN}`, `E2E sharing ${RUN}`, [slatePara('Shared.')])).path;
    await voltoLogin(page);
  });
  await s('the sharing page lists principals and roles', async () => {
    await page.goto(`${V}${p}/sharing`, { waitUntil: 'networkidle2' });
    await waitSel(page, '#page-sharing table tbody tr', 15000);
    const heads = await page.$$eval('#page-sharing table thead th', (ths) => ths.map((t) => t.textContent.trim()));
    assert(heads.length > 1, `the sharing table has no role columns: ${JSON.stringify(heads)}`);
  });
  await s('the history page lists what happened', async () => {
    // Volto 18's route for the history view is <path>/historyview.
    await page.goto(`${V}${p}/historyview`, { waitUntil: 'networkidle2' });
    await waitSel(page, '#page-history table tbody tr', 15000);
  });
  await s('reverts to a version from the history page (PATCH @history)', async () => {
    // A version of the page as it is, then a change made after it.
    const auth = { Authorization: `Basic ${Buffer.from(`admin:${env.password}`).toString('base64')}` };
    const token = await (await fetch(`${SITE}/@@authenticator/token`, { headers: auth })).text();
    const version = async (comment) => {
      const made = await fetch(`${SITE}${p}/@versions`, {
        method: 'POST',
        headers: { ...auth, Accept: 'application/json', 'Content-Type': 'application/json', 'X-CSRF-TOKEN': token },
        body: JSON.stringify({ comment }),
      });
      assert(made.status === 201, `POST @versions answered ${made.status}`);
    };
    // Volto offers to revert to any version but the newest, which it takes for the current state.
    await version('before the change');
    await api('PATCH', p, { title: `Changed after the version ${RUN}` });
    await version('after the change');
    await page.goto(`${V}${p}/historyview`, { waitUntil: 'networkidle2' });
    await waitText(page, '#page-history table tbody', 'before the change', 15000);
    // The older version's row has an actions menu; its last item reverts to it.
    const rows = await page.$$('#page-history table tbody tr');
    let menu = null;
    for (const row of rows) {
      const text = await row.evaluate((r) => r.textContent);
      if (text.includes('before the change')) menu = await row.$('.ui.dropdown');
    }
    assert(menu, 'the version "before the change" has no actions menu');
    await menu.click();
    await clickText(page, '#page-history .ui.dropdown .menu .item', 'Revert to this revision');
    const deadline = Date.now() + 15000;
    let title = '';
    while (Date.now() < deadline) {
      title = (await api('GET', p)).title;
      if (title === `E2E sharing ${RUN}`) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    assert(title === `E2E sharing ${RUN}`, `after the revert the title is ${JSON.stringify(title)}`);
  });
});

addVersionFlows(flow, RUN);
addSiteSetupFlows(flow, RUN);
addUsersSetupFlows(flow, RUN);
addPanelsFlows(flow, RUN);
addCommentsFlows(flow, RUN);
addUploadFlows(flow, RUN);
addContentRulesFlows(flow, RUN);
addContentTypesFlows(flow, RUN);

// The multilingual flows change the whole site, so `run` starts them last, in a phase of their
// own (WCS_E2E_PHASE=multilingual) with Volto restarted in its multilingual mode.
const MULTILINGUAL_PHASE = process.env.WCS_E2E_PHASE === 'multilingual';
if (MULTILINGUAL_PHASE) {
  flows.length = 0;
  addMultilingualFlows(flow, RUN);
}
const selected = flows.filter((f) => !env.only || f.name.includes(env.only));
if (MULTILINGUAL_PHASE && selected.length) {
  await switchSiteToLanguages();
}

// --- run them -----------------------------------------------------------------------------------
const browser = await puppeteer.launch({
  executablePath: env.chromium,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--lang=en-US'],
  defaultViewport: { width: 1366, height: 900 },
});
const failed = [];
try {
  for (const f of selected) {
    console.log(`\n# ${f.name}`);
    const ctx = await browser.createBrowserContext();
    const page = await ctx.newPage();
    page.setDefaultTimeout(20000);
    page.setDefaultNavigationTimeout(45000);
    await page.setExtraHTTPHeaders({ 'Accept-Language': 'en' });
    page.on('dialog', (d) => d.accept());
    try {
      await f.fn(page, (name, fn) => step(f.name, page, name, fn));
    } catch (e) {
      if (!(e instanceof StepFailed)) {
        console.log(`  [FAIL] ${f.name}: ${e.stack || e}`);
        results.push({ flow: f.name, step: '(outside a step)', ok: false, error: String(e) });
      }
      failed.push(f.name);
    } finally {
      await ctx.close().catch(() => {});
    }
  }
} finally {
  await browser.close();
  fs.rmSync(PNG_DIR, { recursive: true, force: true });
}

const resultsFile = MULTILINGUAL_PHASE ? 'results-multilingual.json' : 'results.json';
fs.writeFileSync(path.join(env.shots, resultsFile), JSON.stringify(results, null, 2));
console.log('\n# summary');
for (const f of selected) {
  const bad = results.find((r) => r.flow === f.name && !r.ok);
  console.log(`  ${bad ? 'FAIL' : 'pass'}  ${f.name}${bad ? `  (at: ${bad.step})` : ''}`);
}
process.exit(failed.length ? 1 : 0);
