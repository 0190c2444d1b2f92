// The server's own HTML version views (list, create, compare, display, restore, delete), walked
// on the backend directly for a ContentPage and for a Volto page.
import { env, SITE, step, assert, waitText, waitSel, clickText, api, sitePath, uuid, slatePara } from './lib.mjs';
import { apiPage } from './volto.mjs';

/** Adds the version-view flows through `flow`; `run` keeps the ids of this run unique. */
export function addVersionFlows(flow, RUN) {
  // The server's HTML version views, on the backend itself. `subject` makes the object, changes it
  // (step 1 and 2, the second with formatting) and reads its text back.
  function versionFlow(name, subject) {
    flow(name, async (page, s) => {
      let p;
      const url = (view) => `${SITE}${p}/${view}`;
      const rows = () =>
        page.$$eval('table.versions tbody tr', (trs) => trs.map((t) => t.dataset.versionId));
      const createVersion = async (comment) => {
        await page.goto(url('list_versions'));
        await page.type('form.create-version input[name="comment"]', comment);
        await Promise.all([page.waitForNavigation(), page.click('form.create-version button[type="submit"]')]);
        await waitText(page, 'table.versions td.comment', comment);
      };
      await s('an anonymous visitor of list_versions is sent to the login page', async () => {
        p = await subject.create();
        await page.goto(url('list_versions'));
        const here = new URL(page.url());
        assert(here.pathname === '/Plone/login', `ended at ${page.url()}, not at the login page`);
        assert(
          (here.searchParams.get('came_from') || '').endsWith(`${p}/list_versions`),
          `came_from is ${here.searchParams.get('came_from')}`,
        );
        await waitSel(page, 'form input[name="login"]');
      });
      await s('logs in with the HTML form and returns to list_versions', async () => {
        await page.type('input[name="login"]', 'admin');
        await page.type('input[name="password"]', env.password);
        await Promise.all([page.waitForNavigation(), page.click('form button[type="submit"]')]);
        assert(new URL(page.url()).pathname === `/Plone${p}/list_versions`, `landed on ${page.url()}`);
        await waitText(page, 'h1', 'Versions');
      });
      await s('creates version 0', () => createVersion('first e2e version'));
      await s('changes the object and creates version 1', async () => {
        await subject.change(1);
        await createVersion('second e2e version');
        const ids = await rows();
        assert(ids.length === 2, `expected 2 versions, the list shows ${JSON.stringify(ids)}`);
      });
      await s('changes it again; "Compare with current version" shows ins, del and mark', async () => {
        await subject.change(2);
        await page.goto(url('list_versions'));
        const link = await page.$('tr[data-version-id="0"] a[href*="compare_version"]');
        assert(link, 'version 0 has no compare link');
        const label = await link.evaluate((a) => a.textContent.trim());
        assert(label === 'Compare with current version', `the link says ${JSON.stringify(label)}`);
        await Promise.all([page.waitForNavigation(), link.click()]);
        const found = {};
        for (const tag of ['ins', 'del', 'mark']) {
          found[tag] = await page.$$eval(tag, (els) => els.map((e) => e.textContent.trim()));
        }
        const none = await page.$eval('.no-changes', (e) => e.textContent.trim()).catch(() => '');
        assert(
          found.ins.length && found.del.length && found.mark.length,
          `the comparison lacks some marks: ${JSON.stringify(found)}${none ? `; the page says "${none}"` : ''}`,
        );
        assert(
          found.del.join(' ').includes(subject.deleted),
          `"${subject.deleted}" is not shown as deleted: ${JSON.stringify(found.del)}`,
        );
      });
      await s('display_version shows version 0', async () => {
        await page.goto(url('display_version?version_id=0'));
        await waitText(page, 'body', subject.original);
      });
      await s('restores version 0', async () => {
        await page.goto(url('list_versions'));
        await Promise.all([
          page.waitForNavigation(),
          page.click('tr[data-version-id="0"] form[action$="/restore_version"] button'),
        ]);
        const now = await subject.text();
        assert(now.includes(subject.original), `after restoring, the object holds ${now.slice(0, 300)}`);
      });
      await s('deletes version 1', async () => {
        await page.goto(url('list_versions'));
        const before = await rows();
        await Promise.all([
          page.waitForNavigation(),
          page.click('tr[data-version-id="1"] form[action$="/delete_version"] button'),
        ]);
        await page.goto(url('list_versions'));
        const after = await rows();
        assert(after.length === before.length - 1, `versions before ${before}, after ${after}`);
        const comments = await page.$$eval('td.comment', (tds) => tds.map((t) => t.textContent.trim()));
        assert(
          comments.includes('first e2e version') && !comments.includes('second e2e version'),
          `the list shows the comments ${JSON.stringify(comments)}`,
        );
      });
    });
  }

  // A ContentPage of the demo: its blocks are TextBlock objects with HTML text.
  versionFlow('version views on a ContentPage', {
    original: 'Wir beraten Sie',
    deleted: 'Solarthermie',
    page: '/umwelt/energie/solarberatung',
    block: '/umwelt/energie/solarberatung/angebot',
    async create() {
      return this.page;
    },
    async change(n) {
      const html = [
        '',
        '<p>Wir beraten Sie <strong>kostenlos</strong> zu Photovoltaik. Mehr im Ratgeber.</p>',
        '<p>Wir beraten Sie <em>kostenlos</em> und gern zu Photovoltaik. Mehr im Ratgeber.</p>',
      ][n];
      await api('PATCH', this.block, { text: { data: html, 'content-type': 'text/html', encoding: 'utf-8' } });
    },
    async text() {
      return (await api('GET', this.block)).text?.data || '';
    },
  });

  // A Volto page: its blocks are slate blocks in `blocks`.
  versionFlow('version views on a Volto page', {
    original: 'The quick brown fox',
    deleted: 'brown',
    async create() {
      const made = await apiPage(`e2e-versions-${RUN}`, `E2E versions ${RUN}`, [
        slatePara('The quick brown fox jumps over the lazy dog.'),
      ]);
      this.made = made;
      return made.path;
    },
    async change(n) {
      const children = [
        null,
        [{ text: 'The quick red fox jumps over the lazy cat.' }],
        [
          { text: 'The slow red fox jumps over the ' },
          { type: 'strong', children: [{ text: 'lazy' }] },
          { text: ' cat.' },
        ],
      ][n];
      const { titleId, blockIds } = this.made;
      const plaintext = children.map((c) => c.text ?? c.children.map((x) => x.text).join('')).join('');
      await api('PATCH', this.made.path, {
        blocks: {
          [titleId]: { '@type': 'title' },
          [blockIds[0]]: { '@type': 'slate', value: [{ type: 'p', children }], plaintext },
        },
        blocks_layout: { items: [titleId, blockIds[0]] },
      });
    },
    async text() {
      return JSON.stringify((await api('GET', this.made.path)).blocks);
    },
  });

}
