// Content types in Volto, used by a site owner: a field added to Page in Site Setup → Content
// Types (the schema editor saves the whole schema with PUT @types/Document) and filled in a
// page's edit form; a new type made in the same panel and an object of it added.
import { env, assert, waitSel, waitText, clickText, api } from './lib.mjs';
import { voltoLogin, save, apiPage } from './volto.mjs';
import { answerTo, refused, fill } from './site_setup.mjs';

const V = env.volto;

// Types into a text field of the open modal form.
async function fillModal(page, name, value) {
  const input = await waitSel(page, `.ui.modal #field-${name}`);
  await input.click({ clickCount: 3 });
  await input.type(value);
}

export function addContentTypesFlows(flow, RUN) {
  flow('site owner adds a field to Page in Content Types and fills it in', async (page, s) => {
    const fieldTitle = `Sachgebiet ${RUN}`;
    const fieldId = fieldTitle.toLowerCase().replace(/[\s-]+/g, '_').replace(/[^\w]+/g, '');
    const pageId = `e2e-typed-${RUN}`;
    try {
      await s('logs in', () => voltoLogin(page));

      await s("adds a text field in Page's schema and saves it", async () => {
        await page.goto(`${V}/controlpanel/dexterity-types/Document/schema`, { waitUntil: 'networkidle2' });
        await waitSel(page, '#page-controlpanel-schema');
        await (await waitSel(page, '#addfield')).click();
        await fillModal(page, 'title', fieldTitle);
        await (await waitSel(page, '.ui.modal button[aria-label="Save"]')).click();
        await waitText(page, '#page-controlpanel-schema', fieldTitle);
        const saved = answerTo(page, 'PUT', /@types\/Document$/);
        await (await waitSel(page, '#toolbar-save')).click();
        const problem = await refused(await saved);
        assert(!problem, problem);
        const field = await api('GET', `/@types/Document/${fieldId}`);
        assert(field.title === fieldTitle && field.factory === 'Text', `the field as stored: ${JSON.stringify(field)}`);
      });

      await s("fills the new field in a page's edit form", async () => {
        await apiPage(pageId, `Typed ${RUN}`, []);
        await page.goto(`${V}/${pageId}/edit`, { waitUntil: 'networkidle2' });
        // The page's own fields are in the sidebar's Document tab.
        await fill(page, fieldId, 'Bauen und Wohnen');
        await save(page);
        const stored = await api('GET', `/${pageId}`);
        assert(stored[fieldId] === 'Bauen und Wohnen', `the page holds ${JSON.stringify(stored[fieldId])}`);
      });
    } finally {
      await api('DELETE', `/${pageId}`).catch(() => {});
      await api('DELETE', `/@types/Document/${fieldId}`).catch((e) => console.log(`         cleaning up: ${e.message}`));
    }
  });

  flow('site owner creates a content type and adds an object of it', async (page, s) => {
    const typeTitle = `Aushang ${RUN}`;
    const typeId = typeTitle.toLowerCase().replace(/[^a-z0-9]+/g, '_');
    const objectTitle = `Sperrung der Brücke ${RUN}`;
    let objectPath;
    try {
      await s('logs in', () => voltoLogin(page));

      await s('adds the type in Site Setup → Content Types', async () => {
        await page.goto(`${V}/controlpanel/dexterity-types`, { waitUntil: 'networkidle2' });
        await waitSel(page, '.types-control-panel');
        await (await waitSel(page, '#toolbar-add')).click();
        await fillModal(page, 'title', typeTitle);
        await fillModal(page, 'description', 'Aushänge der Gemeinde');
        const made = answerTo(page, 'POST', /@controlpanels\/dexterity-types$/);
        await (await waitSel(page, '.ui.modal button[aria-label="Save"]')).click();
        const problem = await refused(await made);
        assert(!problem, problem);
        await waitText(page, '.types-control-panel', typeTitle);
      });

      await s('lets it hold rich text in its settings', async () => {
        await page.goto(`${V}/controlpanel/dexterity-types/${typeId}`, { waitUntil: 'networkidle2' });
        await clickText(page, '.ui.menu .item', 'Behaviors');
        await waitSel(page, '#field-plone\\.richtext');
        const changed = answerTo(page, 'PATCH', new RegExp(`@controlpanels/dexterity-types/${typeId}$`));
        await page.evaluate(() => document.querySelector('label[for="field-plone.richtext"]').click());
        await (await waitSel(page, '#toolbar-save, button[aria-label="Save"]')).click();
        const problem = await refused(await changed);
        assert(!problem, problem);
        const schema = await api('GET', `/@types/${typeId}`);
        assert(schema.properties.text, `the type has rich text now: ${Object.keys(schema.properties)}`);
      });

      await s('adds an object of the new type from the toolbar', async () => {
        await page.goto(`${V}/add?type=${encodeURIComponent(typeId)}`, { waitUntil: 'networkidle2' });
        await fill(page, 'title', objectTitle);
        await save(page);
        const found = await api('GET', `/@search?portal_type=${encodeURIComponent(typeId)}&SearchableText=Brücke`);
        assert(found.items_total === 1, `the new object is searchable: ${JSON.stringify(found).slice(0, 300)}`);
        objectPath = new URL(found.items[0]['@id']).pathname.replace(/^\/Plone/, '');
        const object = await api('GET', objectPath);
        assert(object['@type'] === typeId && object.review_state === 'private', `stored as ${object['@type']}, ${object.review_state}`);
      });
    } finally {
      if (objectPath) await api('DELETE', objectPath).catch(() => {});
      await api('DELETE', `/@controlpanels/dexterity-types/${typeId}`).catch((e) => console.log(`         cleaning up: ${e.message}`));
    }
  });
}
