// Site Setup in Volto (`/controlpanel`), used by an administrator: the overview of the panels, the
// site title in the Site panel, a new user in "Users", an alternative URL in "URL Management" and
// the server's version in the "Version Overview".
import { env, SITE, step, assert, waitText, waitSel, api } from './lib.mjs';
import { voltoLogin } from './volto.mjs';

const V = env.volto;
// The flows' names share this prefix (WCS_E2E_ONLY='Site Setup' runs them all); each logs in
// on its own, so a refusal in one part does not hide what the others find.
const FLOW = 'administrator uses Site Setup';

// Waits for the answer to a request of the app to the backend (through Volto's /++api++ proxy)
// and fails, naming it, when the server refused it.
export function answerTo(page, method, re, timeout = 20000) {
  return page
    .waitForResponse((r) => r.request().method() === method && r.url().includes('/++api++') && re.test(r.url()), {
      timeout,
    })
    .catch(() => {
      throw new Error(`the app sent no ${method} matching ${re} within ${timeout} ms`);
    });
}
export async function refused(res) {
  if (res.status() < 400) return null;
  const body = await res.text().catch(() => '');
  const sent = res.request().postData();
  const what = `${res.request().method()} ${res.url()}${sent ? ` with ${sent.slice(0, 300)}` : ''}`;
  return `${what} answered ${res.status()}: ${body.slice(0, 400)}`;
}

// Types into a form field (ids are field-<name> in Volto's forms), replacing what is there.
export async function fill(page, name, value) {
  const input = await waitSel(page, `#field-${name}`);
  await input.click({ clickCount: 3 });
  await page.keyboard.press('Backspace');
  await input.type(value);
}

// The visible Site Setup entries: group headers and panel titles.
const overview = (page) =>
  page.evaluate(() => ({
    groups: [...document.querySelectorAll('.controlpanel .segment.secondary')].map((e) => e.textContent.trim()),
    panels: [...document.querySelectorAll('.controlpanel a[href^="/controlpanel/"]')].map((a) => ({
      href: a.getAttribute('href'),
      title: a.textContent.trim(),
    })),
  }));

/** Adds the Site Setup flows through `flow`; `RUN` keeps the names of this run unique. */
export function addSiteSetupFlows(flow, RUN) {
  flow(`${FLOW}: the overview and the site title`, async (page, s) => {
    await s('logs in', () => voltoLogin(page));

    await s('Site Setup lists the panels', async () => {
      await page.goto(`${V}/controlpanel`, { waitUntil: 'networkidle2' });
      await waitText(page, '.controlpanel .segment.primary', 'Site Setup');
      await waitSel(page, '.controlpanel a[href="/controlpanel/site"]');
      const seen = await overview(page);
      const titles = seen.panels.map((p) => p.title);
      // The panels of the server's @controlpanels, then those Volto adds itself.
      const expected = ['Site', 'Language', 'Date and Time', 'Mail', 'Search', 'Navigation', 'Content Types'];
      expected.push('Users', 'Groups', 'URL Management', 'Database', 'Undo');
      const missing = expected.filter((t) => !titles.includes(t));
      assert(!missing.length, `Site Setup lacks ${JSON.stringify(missing)}; it shows ${JSON.stringify(seen)}`);
      for (const g of ['General', 'Content', 'Users']) {
        assert(seen.groups.includes(g), `Site Setup has no group ${g}: ${JSON.stringify(seen.groups)}`);
      }
    });

    const newTitle = `E2E Gemeinde ${RUN}`;
    const oldTitle = (await api('GET', '/@controlpanels/site')).data?.site_title;
    try {
      await s('changes the site title in the Site panel', async () => {
        // From the overview, as a visitor would.
        await Promise.all([
          page.waitForFunction(() => location.pathname === '/controlpanel/site'),
          page.click('.controlpanel a[href="/controlpanel/site"]'),
        ]);
        await waitSel(page, '#page-controlpanel #field-site_title');
        await fill(page, 'site_title', newTitle);
        const patched = answerTo(page, 'PATCH', /@controlpanels\/site$/);
        await (await waitSel(page, '#toolbar-save')).click();
        const why = await refused(await patched);
        if (why) throw new Error(`saving the Site panel: ${why}`);
        await waitText(page, '.Toastify', 'Changes saved');
        const stored = (await api('GET', '/@controlpanels/site')).data?.site_title;
        assert(stored === newTitle, `@controlpanels/site holds site_title ${JSON.stringify(stored)}`);
      });

      await s('the new site title shows in the browser tab and the logo', async () => {
        await page.goto(`${V}/`, { waitUntil: 'networkidle2' });
        // Stock Volto: the site root's tab title is the site title, the logo's alt names it.
        await page
          .waitForFunction((t) => document.title === t, { timeout: 10000 }, newTitle)
          .catch(async () => {
            const now = await page.title();
            throw new Error(`the home page's <title> is ${JSON.stringify(now)}, not ${JSON.stringify(newTitle)}`);
          });
        const alt = await page.$eval('.logo img', (i) => i.alt).catch(() => null);
        assert(alt === `Logo of ${newTitle}`, `the logo's alt is ${JSON.stringify(alt)}`);
      });
    } finally {
      // The other flows see the demo's title again.
      if (oldTitle !== undefined) await api('PATCH', '/@controlpanels/site', { site_title: oldTitle });
    }
  });

  flow(`${FLOW}: a new user`, async (page, s) => {
    const user = { username: `e2e-user-${RUN}`, password: `e2e-pw-${RUN}-secret`, fullname: `E2E User ${RUN}` };
    user.email = `${user.username}@example.org`;
    await s('logs in', () => voltoLogin(page));

    await s('adds a user in Users', async () => {
      await page.goto(`${V}/controlpanel/users`, { waitUntil: 'networkidle2' });
      await waitText(page, '.users-control-panel .segment.primary', 'Users');
      // The panel lists the users (with a column per role) before it offers to add one.
      await waitText(page, '.users-control-panel tbody td.fullname', '(admin)');
      await (await waitSel(page, '#toolbar-add')).click();
      await waitSel(page, '.ui.modal #field-username');
      await fill(page, 'username', user.username);
      await fill(page, 'email', user.email);
      await fill(page, 'fullname', user.fullname);
      await fill(page, 'password', user.password);
      const created = answerTo(page, 'POST', /@users$/);
      await page.click('.ui.modal .actions button[aria-label="Save"]');
      const why = await refused(await created);
      if (why) throw new Error(`adding the user: ${why}`);
      await page.waitForFunction(() => !document.querySelector('.ui.modal #field-username'), { timeout: 10000 });
      await waitText(page, '.users-control-panel tbody td.fullname', `${user.fullname} (${user.username})`);
    });

    // In a browser context of its own: a step on that page, so the screenshot shows its browser.
    const ctx = await page.browser().createBrowserContext();
    try {
      const other = await ctx.newPage();
      await other.setExtraHTTPHeaders({ 'Accept-Language': 'en' });
      const name = 'the new user logs in through /login (fresh browser context)';
      await step(`${FLOW}: a new user`, other, name, async () => {
        await voltoLogin(other, user.username, user.password);
        const token = (await ctx.cookies()).find((c) => c.name === 'auth_token')?.value || '';
        const claims = JSON.parse(Buffer.from(token.split('.')[1] || '', 'base64url').toString() || '{}');
        assert(claims.sub === user.username, `the auth_token is for ${JSON.stringify(claims.sub)}`);
      });
    } finally {
      await ctx.close().catch(() => {});
    }
  });

  flow(`${FLOW}: an alternative URL`, async (page, s) => {
    const alias = `/e2e-alias-${RUN}`;
    const target = { path: '/umwelt/abfall', title: 'Abfall und Recycling' }; // a demo ContentPage
    await s('logs in', () => voltoLogin(page));

    await s('adds an alternative URL in URL Management', async () => {
      await page.goto(`${V}/controlpanel/aliases`, { waitUntil: 'networkidle2' });
      await waitText(page, '#page-aliases .segment.primary', 'URL Management');
      await (await waitSel(page, '#add-alt-url')).click();
      await waitSel(page, '.ui.modal #field-altUrlPath');
      await fill(page, 'altUrlPath', alias);
      await fill(page, 'targetUrlPath', target.path);
      const added = answerTo(page, 'POST', /@aliases$/);
      await page.click('.ui.modal .actions button[aria-label="Save"]');
      const why = await refused(await added);
      if (why) throw new Error(`adding the alternative URL: ${why}`);
      await page.waitForFunction(() => !document.querySelector('.ui.modal #field-altUrlPath'), { timeout: 10000 });
      await waitText(page, '#page-aliases table tbody td', alias);
      // The backend sends a visitor of the alternative URL on to the page.
      const res = await fetch(`${SITE}${alias}`, { redirect: 'manual' });
      const location = res.headers.get('location') || '';
      assert(
        res.status === 302 && new URL(location, SITE).pathname === `/Plone${target.path}`,
        `GET ${SITE}${alias} answered ${res.status}${location ? ` to ${location}` : ''}`,
      );
    });

    await s('opening the alternative URL in Volto shows the page', async () => {
      await page.goto(`${V}${alias}`, { waitUntil: 'networkidle2' });
      await waitText(page, 'h1.documentFirstHeading', target.title);
      const here = new URL(page.url()).pathname;
      assert(here === target.path, `the browser is at ${here}, not at ${target.path}`);
    });
  });

  flow(`${FLOW}: the server's version`, async (page, s) => {
    await s('logs in', () => voltoLogin(page));

    await s("the Version Overview shows this server's version", async () => {
      // Volto 18 shows @system in Site Setup's "Version Overview" (there is no /controlpanel/system).
      const sys = await api('GET', '/@system');
      assert(sys.wcs_backend_version, `@system has no wcs_backend_version: ${JSON.stringify(sys)}`);
      await page.goto(`${V}/controlpanel`, { waitUntil: 'networkidle2' });
      const overviewSel = '.controlpanel .segment.attached ul li';
      await waitText(page, overviewSel, `Plone wcs-backend ${sys.wcs_backend_version}`);
      await waitText(page, overviewSel, `plone.restapi ${sys.plone_restapi_version}`);
      await (await waitText(page, '.controlpanel .segment.primary', 'Version Overview')).scrollIntoView();
    });
  });
}
