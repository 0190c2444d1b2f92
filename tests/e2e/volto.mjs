// Volto helpers for the flows: logging in, the block chooser, typing into Volto's editors,
// saving, and pages made through the REST API.
import { env, SITE, step, assert, waitText, waitSel, clickText, api, sitePath, uuid, slatePara } from './lib.mjs';

const V = env.volto;

// Logs in through Volto's /login form, as admin unless told otherwise.
export async function voltoLogin(page, login = 'admin', password = env.password) {
  await page.goto(`${V}/login`, { waitUntil: 'networkidle2' });
  await waitSel(page, '#login');
  await page.type('#login', login);
  await page.type('#password', password);
  await page.click('#login-form-submit');
  // The toolbar only shows for a logged-in user.
  await waitSel(page, '#toolbar .toolbar-actions, #toolbar .toolbar', 20000);
  const cookies = await page.browserContext().cookies();
  assert(
    cookies.some((c) => c.name === 'auth_token'),
    'no auth_token cookie after logging in',
  );
}

export async function waitForView(page) {
  await page.waitForFunction(
    () => !/\/(add|edit)$/.test(location.pathname) && document.querySelector('h1.documentFirstHeading'),
    { timeout: 30000 },
  );
}

// Clicks into a Slate editable and types; `replace` selects what is there first.
export async function typeInto(page, handle, text, { replace = false } = {}) {
  await handle.click();
  if (replace) {
    // Ctrl+A does not select a Slate block's text in Volto (what was typed landed in front of
    // the old text); the browser's own caret moves to the editable's start and end do, and
    // Slate follows the selection they make. On a busy machine the first try can land before
    // the editor has focus, so the selection is checked, and made again, before typing.
    let selected = false;
    for (let attempt = 0; attempt < 5 && !selected; attempt++) {
      if (attempt > 0) {
        await new Promise((r) => setTimeout(r, 200 * attempt));
        await handle.click();
      }
      await page.keyboard.down('Control');
      await page.keyboard.press('Home');
      await page.keyboard.down('Shift');
      await page.keyboard.press('End');
      await page.keyboard.up('Shift');
      await page.keyboard.up('Control');
      selected = await handle.evaluate(
        (el) => (window.getSelection()?.toString() ?? '').trim() === el.textContent.trim(),
      );
    }
    if (!selected) {
      throw new Error('the text to replace could not be selected');
    }
  }
  await page.keyboard.type(text, { delay: 5 });
}

// Opens the block chooser from the empty block's "+" and picks a block by its id (button class).
export async function chooseBlock(page, blockId, search) {
  const add = await page.waitForFunction(
    () => [...document.querySelectorAll('button.block-add-button')].filter((b) => b.offsetParent).pop(),
    { timeout: 10000 },
  );
  await add.asElement().click();
  await waitSel(page, '.blocks-chooser');
  const input = await page.$('.blocks-chooser .searchbox input');
  if (input) {
    await input.type(search);
  }
  await (await waitSel(page, `.blocks-chooser button.${blockId}`)).click();
}

// The title editor of a new page, then its first (empty) text block.
export async function typeTitle(page, title) {
  const t = await waitSel(page, '.block.title [contenteditable="true"]', 30000);
  await typeInto(page, t, title);
}

export async function firstTextBlock(page) {
  return waitSel(page, '.block-editor-slate [contenteditable="true"]');
}

// Saves the edit form: a refusal of the create (POST) or update (PATCH) fails at once, naming it.
export async function save(page) {
  const saved = page.waitForResponse(
    (r) =>
      r.url().includes('/++api++') &&
      ['POST', 'PATCH'].includes(r.request().method()) &&
      !/@(lock|querystring-search|login)/.test(r.url()),
    { timeout: 30000 },
  );
  await (await waitSel(page, '#toolbar-save')).click();
  const res = await saved;
  if (res.status() >= 400) {
    const body = await res.text().catch(() => '');
    throw new Error(
      `saving: ${res.request().method()} ${res.url()} answered ${res.status()}: ${body.slice(0, 400)}`,
    );
  }
  await waitForView(page);
}

// A Document made through the REST API (kept out of the navigation): a title block, then `blocks`.
export async function apiPage(id, title, blocks) {
  const titleId = uuid();
  const blockIds = blocks.map(() => uuid());
  const doc = await api('POST', '/', {
    '@type': 'Document',
    id,
    title,
    exclude_from_nav: true,
    blocks: { [titleId]: { '@type': 'title' }, ...Object.fromEntries(blocks.map((b, i) => [blockIds[i], b])) },
    blocks_layout: { items: [titleId, ...blockIds] },
  });
  return { doc, path: sitePath(doc['@id']), titleId, blockIds };
}
