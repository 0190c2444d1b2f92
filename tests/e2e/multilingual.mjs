// Multilingual Volto on wcs: the site is switched to two languages in the language panel (the
// server makes a language root folder per language and moves the site's content into the site
// language's), and Volto runs in its multilingual mode (`RAZZLE_WCS_LANGUAGES`, read by the
// app's config). These flows run last, in their own phase: the switch changes the whole site.
import { env, assert, waitText, waitSel, api, sitePath, uuid } from './lib.mjs';
import { voltoLogin, typeInto, save } from './volto.mjs';

const V = env.volto;

/** The site's languages, the site language first; `run` hands the same list to Volto. */
export const LANGUAGES = (process.env.WCS_E2E_LANGUAGES || 'en,de').split(',');
const [SITE_LANGUAGE, OTHER_LANGUAGE] = LANGUAGES;
const NATIVE = { en: 'English', de: 'Deutsch', fr: 'Français', it: 'Italiano' };

/** Switches the site to its languages as the language panel does, once, before the flows. */
export async function switchSiteToLanguages() {
  await api('PATCH', '/@controlpanels/language', {
    default_language: SITE_LANGUAGE,
    available_languages: LANGUAGES,
  });
  const site = await api('GET', '/@site');
  assert(
    site.features?.multilingual === true,
    `@site does not say the site is multilingual: ${JSON.stringify(site.features)}`,
  );
}

const pathIs = (page, want, timeout = 20000) =>
  page
    .waitForFunction((want) => location.pathname.replace(/\/$/, '') === want, { timeout }, want)
    .catch(async () => {
      throw new Error(`the browser is at ${await page.evaluate(() => location.pathname)}, not ${want}`);
    });

// The navigation's links, as Volto draws them.
const navLinks = (page) =>
  page.$$eval('nav.navigation a.item', (as) => as.map((a) => a.getAttribute('href')));

// Clicks the language selector's link to `lang` (titled with the language's own name).
async function switchTo(page, lang) {
  await (await waitSel(page, `.language-selector a[title="${NATIVE[lang]}"]`)).click();
}

export function addMultilingualFlows(flow, RUN) {
  flow('multilingual: a visitor lands in the site language and switches language', async (page, s) => {
    await s('the site root opens the site language root with its navigation', async () => {
      await page.goto(`${V}/`, { waitUntil: 'networkidle2' });
      await pathIs(page, `/${SITE_LANGUAGE}`);
      // The language root folder's title block: the server gives each one when it makes it.
      await waitText(page, 'h1.documentFirstHeading', NATIVE[SITE_LANGUAGE]);
      // The demo topics were moved into the site language's folder; the navigation is that root's.
      const links = await navLinks(page);
      for (const topic of ['umwelt', 'leben']) {
        assert(
          links.includes(`/${SITE_LANGUAGE}/${topic}`),
          `the navigation of /${SITE_LANGUAGE} does not list /${SITE_LANGUAGE}/${topic}: ${JSON.stringify(links)}`,
        );
      }
      assert(
        links.every((l) => l === `/${SITE_LANGUAGE}` || l.startsWith(`/${SITE_LANGUAGE}/`)),
        `the navigation leaves the language root: ${JSON.stringify(links)}`,
      );
    });
    await s(`the language selector switches to ${NATIVE[OTHER_LANGUAGE]}`, async () => {
      await switchTo(page, OTHER_LANGUAGE);
      await pathIs(page, `/${OTHER_LANGUAGE}`);
      await waitText(page, 'h1.documentFirstHeading', NATIVE[OTHER_LANGUAGE]);
      await waitSel(page, `.language-selector a.selected[title="${NATIVE[OTHER_LANGUAGE]}"]`);
      const links = await navLinks(page);
      assert(
        !links.some((l) => l.startsWith(`/${SITE_LANGUAGE}/`)),
        `the navigation of /${OTHER_LANGUAGE} shows the other language's content: ${JSON.stringify(links)}`,
      );
    });
  });

  flow('multilingual: an editor translates a page through the Add menu and follows it', async (page, s) => {
    const original = `Opening hours ${RUN}`;
    const translated = `Öffnungszeiten ${RUN}`;
    let originalPath;
    let translationPath;
    await s('opens a page of the site language', async () => {
      const titleBlock = uuid();
      const doc = await api('POST', `/${SITE_LANGUAGE}`, {
        '@type': 'Document',
        id: `opening-hours-${RUN}`,
        title: original,
        exclude_from_nav: true,
        blocks: { [titleBlock]: { '@type': 'title' } },
        blocks_layout: { items: [titleBlock] },
      });
      originalPath = sitePath(doc['@id']);
      assert(doc.language?.token === SITE_LANGUAGE, `the new page's language: ${JSON.stringify(doc.language)}`);
      await voltoLogin(page);
      await page.goto(`${V}${originalPath}`, { waitUntil: 'networkidle2' });
      await waitText(page, 'h1.documentFirstHeading', original);
    });
    await s(`chooses "Translate to ${NATIVE[OTHER_LANGUAGE].toLowerCase()}" in the Add menu`, async () => {
      await (await waitSel(page, '#toolbar-add')).click();
      const wanted = `Translate to ${NATIVE[OTHER_LANGUAGE].toLowerCase()}`;
      const link = await page.waitForFunction(
        (wanted) => [...document.querySelectorAll('.menu-more a.item')].find((a) => a.textContent.trim() === wanted),
        { timeout: 10000 },
        wanted,
      );
      // The menu slides in: a click at the link's place can land before it is there.
      await link.asElement().evaluate((a) => a.click());
      // Volto asks @translation-locator where the translation goes: the other language's root.
      await page.waitForFunction((root) => location.pathname === `${root}/add`, { timeout: 20000 }, `/${OTHER_LANGUAGE}`);
    });
    await s('writes the translation beside the original and saves it', async () => {
      // Volto's translation form: the original on the left, the new object's form on the right.
      await waitSel(page, '#page-add-translation .source-object');
      const title = await waitSel(page, '.new-translation .block.title [contenteditable="true"]', 30000);
      await typeInto(page, title, translated);
      await save(page);
      translationPath = await page.evaluate(() => location.pathname);
      assert(
        translationPath.startsWith(`/${OTHER_LANGUAGE}/`),
        `the translation was saved at ${translationPath}, outside /${OTHER_LANGUAGE}`,
      );
      await waitText(page, 'h1.documentFirstHeading', translated);
      const made = await api('GET', translationPath);
      assert(made.language?.token === OTHER_LANGUAGE, `the translation's language: ${JSON.stringify(made.language)}`);
    });
    await s('the two pages are linked as translations', async () => {
      const listed = await api('GET', `${originalPath}/@translations`);
      const paths = listed.items.map((t) => `${t.language} ${sitePath(t['@id'])}`);
      assert(
        JSON.stringify(paths) === JSON.stringify([`${OTHER_LANGUAGE} ${translationPath}`]),
        `@translations of ${originalPath} lists ${JSON.stringify(paths)}`,
      );
    });
    await s('the language selector leads from the translation to the original', async () => {
      await switchTo(page, SITE_LANGUAGE);
      await pathIs(page, originalPath);
      await waitText(page, 'h1.documentFirstHeading', original);
    });
  });
}
