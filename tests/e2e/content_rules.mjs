// Content rules in Volto, used by an administrator: the rule "mail on publish" made in Site
// Setup → Content Rules (Volto's own pages under /controlpanel/rules), its mail action added in the rule's configuration, the rule assigned
// to a folder in the folder's Rules view; publishing a page in that folder mails the SMTP sink.
import { env, assert, waitSel, waitText, clickText, api } from './lib.mjs';
import { voltoLogin } from './volto.mjs';
import { smtpSink, mailTexts } from './smtp_sink.mjs';
import { answerTo, refused } from './site_setup.mjs';

const V = env.volto;

// Chooses `text` in the semantic-ui dropdown that shows `placeholder`, and clicks the button
// beside it (the "Add" of Volto's rule configuration). The handle is kept: an open dropdown no
// longer shows its placeholder.
async function chooseAndAdd(page, placeholder, text) {
  const found = await page.waitForFunction(
    (p) => [...document.querySelectorAll('.ui.dropdown')].find((d) => d.querySelector('.text')?.textContent === p),
    { timeout: 15000 },
    placeholder,
  );
  const dropdown = found.asElement();
  await dropdown.click();
  const options = await dropdown.$$('[role="option"]');
  let chosen = false;
  for (const option of options) {
    if ((await option.evaluate((o) => o.textContent.trim())) === text) {
      await option.click();
      chosen = true;
      break;
    }
  }
  assert(chosen, `the dropdown "${placeholder}" offers no "${text}"`);
  const button = await dropdown.evaluateHandle((d) => {
    let next = d.nextElementSibling;
    while (next && next.tagName !== 'BUTTON') next = next.nextElementSibling;
    return next;
  });
  assert(button.asElement(), `no button beside the dropdown "${placeholder}"`);
  await button.asElement().click();
}

// Fills a text field of the open modal form.
async function fillModal(page, name, value) {
  const input = await waitSel(page, `.ui.modal #field-${name}`);
  await input.click({ clickCount: 3 });
  await input.type(value);
}

export function addContentRulesFlows(flow, RUN) {
  flow('administrator sets up a content rule that mails on publish', async (page, s) => {
    const folderId = `e2e-rules-${RUN}`;
    const ruleTitle = `Mail on publish ${RUN}`;
    const pageTitle = `Rules news ${RUN}`;
    let sink;
    let oldMail;
    let ruleId;
    try {
      await s('points the mail panel at an SMTP sink, makes a folder (REST API)', async () => {
        oldMail = (await api('GET', '/@controlpanels/mail')).data;
        sink = await smtpSink();
        await api('PATCH', '/@controlpanels/mail', {
          smtp_host: '127.0.0.1',
          smtp_port: sink.port,
          smtp_security: 'none',
          email_from_address: 'site@example.org',
        });
        await api('POST', '/', { '@type': 'Folder', id: folderId, title: `E2E rules ${RUN}`, exclude_from_nav: true });
      });
      await s('logs in', () => voltoLogin(page));

      await s('adds the rule in Site Setup → Content Rules', async () => {
        await page.goto(`${V}/controlpanel/rules/add`, { waitUntil: 'networkidle2' });
        await waitSel(page, '#page-rule-add');
        // Volto's form gives its fields no ids of their own: the title is the first text input.
        const title = await waitSel(page, '#page-rule-add input[type="text"]');
        await title.type(ruleTitle);
        // The trigger: the only select of the form (react-select), filled by plone.contentrules.events.
        await (await waitSel(page, '#page-rule-add .react-select__control')).click();
        await page.keyboard.type('Workflow state changed');
        await page.keyboard.press('Enter');
        await clickText(page, '#page-rule-add label', 'Enabled');
        const saved = answerTo(page, 'POST', /@controlpanels\/content-rules$/);
        await clickText(page, '#page-rule-add button', 'Save');
        const res = await saved;
        const problem = await refused(res);
        assert(!problem, problem);
        const rule = await res.json();
        ruleId = rule.id;
        assert(rule.event === 'Workflow state changed' && rule.enabled === true, `the rule as stored: ${JSON.stringify(rule).slice(0, 300)}`);
      });

      await s("adds the mail action in the rule's configuration", async () => {
        await page.goto(`${V}/controlpanel/rules/${ruleId}/configure`, { waitUntil: 'networkidle2' });
        await waitText(page, '#page-rule-configure', ruleTitle);
        await chooseAndAdd(page, 'Select action', 'Send email');
        await waitSel(page, '.ui.modal #field-subject');
        await fillModal(page, 'subject', 'Published: ${title}');
        await fillModal(page, 'recipients', 'press@example.org');
        const message = await waitSel(page, '.ui.modal #field-message');
        await message.type('${title} is online: ${absolute_url}');
        const added = answerTo(page, 'POST', new RegExp(`@controlpanels/content-rules/${ruleId}/action$`));
        await (await waitSel(page, '.ui.modal button[aria-label="Save"]')).click();
        const problem = await refused(await added);
        assert(!problem, problem);
        await waitText(page, '#page-rule-configure .card', 'Email report to press@example.org');
      });

      await s("assigns it to the folder in the folder's Rules view", async () => {
        await page.goto(`${V}/${folderId}/rules`, { waitUntil: 'networkidle2' });
        await waitSel(page, '#rules');
        const assigned = answerTo(page, 'POST', new RegExp(`@content-rules/${ruleId}$`));
        await chooseAndAdd(page, 'Select rule', ruleTitle);
        const problem = await refused(await assigned);
        assert(!problem, problem);
        await waitText(page, '#rules table', ruleTitle);
      });

      await s('publishing a page in the folder mails the press office', async () => {
        await api('POST', `/${folderId}`, { '@type': 'Document', id: 'news', title: pageTitle });
        await api('POST', `/${folderId}/news/@workflow/publish`);
        const deadline = Date.now() + 20000;
        let mail;
        while (!mail && Date.now() < deadline) {
          mail = sink.mails.find((m) => m.to.some((t) => t.includes('press@example.org')));
          if (!mail) await new Promise((r) => setTimeout(r, 250));
        }
        assert(mail, `no mail to press@example.org within 20 s; the sink has ${sink.mails.length} mail(s)`);
        const texts = mailTexts(mail.raw).join('\n');
        assert(texts.includes(`Published: ${pageTitle}`), `the mail's subject: ${mail.raw.slice(0, 800)}`);
        assert(texts.includes(`/${folderId}/news`), `the mail names no link to the page: ${texts.slice(0, 1200)}`);
      });
    } finally {
      if (ruleId) {
        await api('DELETE', `/@controlpanels/content-rules/${ruleId}`).catch((e) => console.log(`         cleaning up: ${e.message}`));
      }
      if (oldMail) {
        const { smtp_port, smtp_security, email_from_address } = oldMail;
        const back = { smtp_host: '', smtp_port, smtp_security, email_from_address };
        await api('PATCH', '/@controlpanels/mail', back).catch((e) => console.log(`         restoring: ${e.message}`));
      }
      await sink?.close();
    }
  });
}
