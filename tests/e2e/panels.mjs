// Every control panel of the server's @controlpanels, opened and saved by an administrator in
// Volto: the form shows each field of the panel's schema, one harmless field is changed, Save
// shows "Changes saved", the REST API holds the new value, which is then set back. The panels
// without fields (listings) must open in Volto without an error page.
import { env, assert, waitText, waitSel, api, StepFailed } from './lib.mjs';
import { voltoLogin } from './volto.mjs';
import { answerTo, refused } from './site_setup.mjs';

const V = env.volto;
const FLOW = 'administrator saves every control panel';

// --- how Volto's widgets are edited -------------------------------------------------------------
async function selectAll(page) {
  await page.keyboard.down('Control');
  await page.keyboard.press('a');
  await page.keyboard.up('Control');
}
// A text or number input (TextWidget, NumberWidget): replaced by `typed`.
const replaceWith = (typed) => async (page, name) => {
  await (await waitSel(page, `#page-controlpanel #field-${name}`)).click();
  await selectAll(page);
  await page.keyboard.press('Backspace');
  await page.keyboard.type(typed);
};
// A textarea (TextareaWidget): `typed` added at its end.
const appendText = (typed) => async (page, name) => {
  await (await waitSel(page, `#page-controlpanel textarea#field-${name}`)).click();
  await page.keyboard.down('Control');
  await page.keyboard.press('End');
  await page.keyboard.up('Control');
  await page.keyboard.type(typed);
};
// A boolean (CheckboxWidget, a Semantic UI checkbox): ticked or unticked by its label.
const toggle = () => async (page, name) => {
  await (await waitSel(page, `#page-controlpanel .field-wrapper-${name} .ui.checkbox label`)).click();
};
// A list of strings without a vocabulary (ArrayWidget, a creatable react-select): one more entry.
const addEntry = (entry) => async (page, name) => {
  const wrapper = `#page-controlpanel .field-wrapper-${name}`;
  await (await waitSel(page, `${wrapper} .react-select__control`)).click();
  await page.keyboard.type(entry);
  await waitSel(page, `${wrapper} .react-select__option`);
  await page.keyboard.press('Enter');
  await waitText(page, `${wrapper} .react-select__multi-value__label`, entry);
};

// What each panel has changed: a field, how it is edited, and the value the server must then
// hold (from the value before). Harmless and set back at once; a panel not named here (or a
// field it lacks) is saved unchanged. Not touched: the mail server's address (smtp_host), the
// search panel's JSON settings, anything that would change who can log in.
const CHANGES = (RUN) => ({
  site: { field: 'robots_txt', edit: appendText(`\n# e2e ${RUN}`), want: (old) => `${old}\n# e2e ${RUN}` },
  language: { field: 'available_languages', edit: addEntry('de'), want: (old) => [...old, 'de'] },
  'date-and-time': { field: 'portal_timezone', edit: replaceWith('Europe/Berlin'), want: () => 'Europe/Berlin' },
  // Volto's NumberWidget hands the typed text on as it is: the PATCH carries "2525".
  mail: { field: 'smtp_port', edit: replaceWith('2525'), want: () => 2525 },
  security: { field: 'enable_self_reg', edit: toggle(), want: (old) => !old },
  usergroup: { field: 'many_groups', edit: toggle(), want: (old) => !old },
  navigation: { field: 'displayed_types', edit: addEntry('Document'), want: (old) => [...old, 'Document'] },
  search: { field: 'highlight', edit: toggle(), want: (old) => !old },
  directdownload: { field: 'directdownload', edit: toggle(), want: (old) => !old },
  discussion: { field: 'edit_comment_enabled', edit: toggle(), want: (old) => !old },
});

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// The heading of an error view (not found, unauthorized, server error) if Volto shows one.
const errorView = (page) =>
  page.evaluate(() => {
    const h = document.querySelector(
      '#view .view-wrapper h1, body.page-not-found h1, .view-unauthorized h1, .view-forbidden h1',
    );
    return h ? h.textContent.trim() : null;
  });

// What Volto shows as having gone wrong on a control panel form.
const formErrors = (page) =>
  page.evaluate(() =>
    [
      ...document.querySelectorAll(
        '.Toastify__toast--error, #page-controlpanel .ui.negative.message, #page-controlpanel .form-error-label',
      ),
    ].map((e) => e.textContent.trim()),
  );

// Each field of the first fieldset: its wrapper, its input or widget (#field-<id>) and its title.
async function checkFields(page, panel) {
  const fields = panel.schema.fieldsets[0].fields.map((id) => ({ id, title: panel.schema.properties[id]?.title }));
  await waitSel(page, `#page-controlpanel .field-wrapper-${fields[0].id}`);
  const seen = await page.evaluate(
    (fields) =>
      fields.map(({ id, title }) => {
        const w = document.querySelector(`#page-controlpanel .field-wrapper-${CSS.escape(id)}`);
        const el = w?.querySelector(`#field-${CSS.escape(id)}`);
        return {
          id,
          widget: el ? `${el.tagName.toLowerCase()}${el.type ? `[${el.type}]` : ''}` : null,
          labelled: !!w && !!title && w.textContent.includes(title),
          value: el && typeof el.value === 'string' ? el.value : undefined,
        };
      }),
    fields,
  );
  const bad = seen.filter((f) => !f.widget || !f.labelled);
  assert(!bad.length, `the form of ${panel.id} lacks fields (or their titles): ${JSON.stringify(bad)}`);
  // Volto has no widget for JSON fields: its text input shows such an object as "[object Object]".
  const unreadable = seen.filter((f) => f.value === '[object Object]').map((f) => f.id);
  if (unreadable.length) console.log(`         note: Volto shows ${unreadable.join(', ')} as "[object Object]"`);
}

// Opens /controlpanel/<id>, checks the fields, changes one, saves and checks the stored value.
async function saveForm(page, panel, change) {
  const before = panel.data;
  await page.goto(`${V}/controlpanel/${panel.id}`, { waitUntil: 'networkidle2' });
  await waitText(page, '#page-controlpanel .segment.primary', panel.title);
  await checkFields(page, panel);
  const field = change && panel.schema.properties[change.field] ? change.field : null;
  if (field) await change.edit(page, field);
  const patched = answerTo(page, 'PATCH', new RegExp(`@controlpanels/${panel.id}$`));
  await (await waitSel(page, '#toolbar-save:not([disabled])')).click();
  const res = await patched;
  const why = await refused(res);
  if (why) {
    await new Promise((r) => setTimeout(r, 500)); // what the form makes of the refusal, for the report
    throw new Error(`saving ${panel.id}: ${why}; the form shows ${JSON.stringify(await formErrors(page))}`);
  }
  await waitText(page, '.Toastify', 'Changes saved');
  const errors = await formErrors(page);
  assert(!errors.length, `saving ${panel.id} shows errors: ${JSON.stringify(errors)}`);
  const after = (await api('GET', `/@controlpanels/${panel.id}`)).data;
  if (field) {
    const want = change.want(before[field]);
    assert(
      same(after[field], want),
      `@controlpanels/${panel.id} holds ${field} ${JSON.stringify(after[field])}, not ${JSON.stringify(want)}` +
        ` (Volto sent ${res.request().postData()})`,
    );
  } else {
    assert(same(after, before), `saving ${panel.id} unchanged changed it: ${JSON.stringify(after)}`);
  }
}

// A panel without fields: Volto's content types page for dexterity-types, its rules page for
// content-rules, otherwise the generic control panel page (Volto 18 has no page of its own for a
// listing like versioning).
async function openListing(page, panel) {
  // Volto hides the server's content-rules entry and lists its own page, /controlpanel/rules.
  const route = panel.id === 'content-rules' ? 'rules' : panel.id;
  await page.goto(`${V}/controlpanel/${route}`, { waitUntil: 'networkidle2' });
  if (panel.id === 'dexterity-types') {
    await waitSel(page, '.types-control-panel table tbody tr').catch(async (e) => {
      throw new Error(`${e.message}; error view: ${JSON.stringify(await errorView(page))}`);
    });
    const rows = await page.$$eval('.types-control-panel table tbody tr td:first-child', (tds) =>
      tds.map((t) => t.textContent.trim()),
    );
    const missing = (panel.items || []).map((i) => i.title).filter((t) => !rows.includes(t));
    assert(!missing.length, `the Content Types table lacks ${JSON.stringify(missing)}; it lists ${JSON.stringify(rows)}`);
    const uncounted = (panel.items || []).filter((i) => typeof i.count !== 'number').map((i) => i.id);
    if (uncounted.length) console.log(`         note: no count (Volto's "Items" column) for ${uncounted.join(', ')}`);
  } else if (panel.id === 'content-rules') {
    // Volto's own page, the rules with their triggers (content_rules.mjs works with it).
    await waitText(page, '#page-rules .segment.primary', panel.title).catch(async (e) => {
      throw new Error(`${e.message}; error view: ${JSON.stringify(await errorView(page))}`);
    });
  } else {
    await waitText(page, '#page-controlpanel .segment.primary', panel.title).catch(async (e) => {
      throw new Error(`${e.message}; error view: ${JSON.stringify(await errorView(page))}`);
    });
    console.log(`         note: Volto has no page for ${panel.id}: its generic form shows the title, not the items`);
  }
  const err = await errorView(page);
  assert(!err, `/controlpanel/${route} shows the error view ${JSON.stringify(err)}`);
}

/** Adds the flow through `flow`; `RUN` keeps the values of this run unique. */
export function addPanelsFlows(flow, RUN) {
  flow(FLOW, async (page, s) => {
    const changes = CHANGES(RUN);
    const listed = await api('GET', '/@controlpanels');
    const ids = listed.map((p) => p['@id'].split('/').pop());
    await s('logs in', () => voltoLogin(page));
    // A refused panel does not hide what the others find: the flow fails after the last one.
    const failed = [];
    for (const id of ids) {
      const panel = { id, ...(await api('GET', `/@controlpanels/${id}`)) };
      const fields = panel.schema?.fieldsets?.[0]?.fields || [];
      const change = changes[id] && fields.includes(changes[id].field) ? changes[id] : null;
      const what = !fields.length ? 'opens (a listing)' : change ? `changes ${change.field}, saves` : 'saves unchanged';
      try {
        await s(`${panel.title} (${id}): ${what}`, () =>
          fields.length ? saveForm(page, panel, change) : openListing(page, panel),
        );
      } catch (e) {
        if (!(e instanceof StepFailed)) throw e;
        failed.push(id);
      } finally {
        // Set back whatever the step reached; the later panels and flows see the demo's values.
        if (change) await api('PATCH', `/@controlpanels/${id}`, { [change.field]: panel.data[change.field] });
      }
    }
    if (failed.length) throw new StepFailed(`${FLOW}: the panels ${failed.join(', ')} failed`);
  });
}
