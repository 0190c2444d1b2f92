// Users and passwords in Volto: roles ticked in Site Setup's "Users", group membership in "User
// Group Membership", a password reset by mail (to an SMTP sink started here) and a user's own
// personal information and password.
import { env, step, assert, waitText, waitSel, api } from './lib.mjs';
import { voltoLogin } from './volto.mjs';
import { answerTo, refused, fill } from './site_setup.mjs';
import { smtpSink, mailTexts } from './smtp_sink.mjs';

const V = env.volto;
// The flows' names share this prefix (WCS_E2E_ONLY='users and passwords' runs them all).
const FLOW = 'users and passwords';

// A user made through the REST API, with a password of its own and an address for mail.
async function apiUser(kind, RUN) {
  const username = `e2e-${kind}-${RUN}`;
  const user = { username, password: `e2e-pw-${RUN}-secret`, fullname: `E2E ${kind} ${RUN}` };
  user.email = `${username}@example.org`;
  await api('POST', '/@users', user, { expect: [201] });
  return user;
}

// Fails, naming the request, when the app's request to the backend was refused.
async function check(answer, what) {
  const why = await refused(await answer);
  if (why) throw new Error(`${what}: ${why}`);
}

// Polls `probe` (an async function answering true when done) until it holds or time runs out;
// the error tells what was seen last.
async function until(probe, describe, timeout = 10000) {
  const end = Date.now() + timeout;
  for (;;) {
    if (await probe()) return;
    if (Date.now() > end) throw new Error(await describe());
    await new Promise((r) => setTimeout(r, 250));
  }
}

// A fresh, anonymous browser context for the step `name` of `flowName`; closed afterwards.
async function inFreshContext(page, flowName, name, fn) {
  const ctx = await page.browser().createBrowserContext();
  try {
    const other = await ctx.newPage();
    await other.setExtraHTTPHeaders({ 'Accept-Language': 'en' });
    await step(flowName, other, name, () => fn(other));
  } finally {
    await ctx.close().catch(() => {});
  }
}

// Logging in through the REST API: does the server take this password?
async function canLogIn(login, password) {
  const res = await fetch(`${env.backend}/Plone/@login`, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify({ login, password }),
  });
  return res.status === 200;
}

// A role's checkbox in a user's row of the Users panel (null when there is none).
const roleBox = (page, username, role) =>
  page.evaluateHandle(
    (u, r) => {
      const heads = [...document.querySelectorAll('.users-control-panel table thead th')].map((t) =>
        t.textContent.trim(),
      );
      const col = heads.indexOf(r);
      const row = [...document.querySelectorAll('.users-control-panel table tbody tr')].find((tr) =>
        tr.querySelector('td.fullname')?.textContent.trim().endsWith(`(${u})`),
      );
      return (col >= 0 && row?.children[col]?.querySelector('.ui.checkbox')) || null;
    },
    username,
    role,
  );

/** Adds the flows of users and passwords through `flow`; `RUN` keeps the names of this run unique. */
export function addUsersSetupFlows(flow, RUN) {
  flow(`${FLOW}: roles in Users`, async (page, s) => {
    let user;
    const role = 'Editor';
    const rolesOf = async () => (await api('GET', `/@users/${user.username}`)).roles;
    await s('makes a user (REST API), logs in as admin', async () => {
      user = await apiUser('roles', RUN);
      await voltoLogin(page);
    });

    // Ticks or unticks the role in the user's row, saves, and waits for the PATCH of that user.
    const setRole = async (on) => {
      await page.goto(`${V}/controlpanel/users`, { waitUntil: 'networkidle2' });
      await waitText(page, '.users-control-panel tbody td.fullname', `(${user.username})`);
      const box = (await roleBox(page, user.username, role)).asElement();
      assert(box, `the row of ${user.username} has no checkbox in a column ${role}`);
      const state = () =>
        box.evaluate((b) => ({ on: b.classList.contains('checked'), off: b.classList.contains('disabled') }));
      assert(!(await state()).off, `the ${role} checkbox of ${user.username} is disabled`);
      assert((await state()).on === !on, `the ${role} checkbox is already ${on ? 'ticked' : 'unticked'}`);
      await box.click();
      await until(
        async () => (await state()).on === on,
        () => `clicking the ${role} checkbox did not ${on ? 'tick' : 'untick'} it`,
      );
      // The panel keeps the ticks until "Save" sends a PATCH for each listed user.
      const patched = answerTo(page, 'PATCH', new RegExp(`/@users/${user.username}$`));
      await (await waitSel(page, '#toolbar-save')).click();
      await check(patched, `saving the roles of ${user.username}`);
      await waitText(page, '.Toastify', 'User roles updated');
      await until(
        async () => (await rolesOf()).includes(role) === on,
        async () => `GET @users/${user.username} has roles ${JSON.stringify(await rolesOf())}`,
      );
    };
    await s(`ticks ${role} in the user's row and saves`, () => setRole(true));
    await s(`unticks ${role} and saves`, () => setRole(false));

    await s('the search box of Users finds the user, and only matching users', async () => {
      await page.goto(`${V}/controlpanel/users`, { waitUntil: 'networkidle2' });
      await waitText(page, '.users-control-panel tbody td.fullname', '(admin)');
      const listed = answerTo(page, 'GET', /@users\?search=/);
      await (await waitSel(page, '#user-search-input')).type(user.username);
      await page.keyboard.press('Enter');
      await check(listed, 'searching for the user');
      const rows = () =>
        page.$$eval('.users-control-panel tbody td.fullname', (tds) => tds.map((t) => t.textContent.trim()));
      await until(
        async () => {
          const r = await rows();
          return r.length > 0 && r.every((t) => t.endsWith(`(${user.username})`));
        },
        async () => `after searching for ${user.username} the panel lists ${JSON.stringify(await rows())}`,
      );
    });
  });

  flow(`${FLOW}: group membership`, async (page, s) => {
    let user;
    const group = 'Reviewers';
    const members = async () => (await api('GET', `/@groups/${group}`)).users?.items || [];
    const groupsOf = async () =>
      ((await api('GET', `/@users/${user.username}`)).groups?.items || []).map((g) => g.id);
    await s('makes a user (REST API), logs in as admin', async () => {
      user = await apiUser('member', RUN);
      await voltoLogin(page);
    });

    await s('User Group Membership shows the users and the groups', async () => {
      await page.goto(`${V}/controlpanel/usergroupmembership`, { waitUntil: 'networkidle2' });
      await waitText(page, '.users-control-panel .segment.primary', 'User Group Membership');
      // Volto asks @system for plone_restapi_version >= 8.24, else it offers an upgrade notice.
      const upgrade = await page.$('.usergroupmembership.upgrade-info');
      if (upgrade) {
        const sys = await api('GET', '/@system');
        const text = await upgrade.evaluate((e) => e.textContent.trim());
        throw new Error(
          `the panel says ${JSON.stringify(text)}: @system has plone_restapi_version ${JSON.stringify(
            sys.plone_restapi_version,
          )}`,
        );
      }
      await waitSel(page, '.usergroupmembership .controlpanel_matrix');
      await waitSel(page, `[id="source-row-${user.username}"]`);
      await waitText(page, '.administration_matrix .label-options-label', group);
    });

    const setMember = async (on) => {
      const box = await waitSel(page, `[id="source-row-${user.username}"] .ui.checkbox.checkbox_${group}`);
      const ticked = () => box.evaluate((b) => b.classList.contains('checked'));
      assert((await ticked()) === !on, `the ${group} checkbox is already ${on ? 'ticked' : 'unticked'}`);
      const patched = answerTo(page, 'PATCH', new RegExp(`/@groups/${group}$`));
      await box.click();
      await check(patched, `${on ? 'adding' : 'removing'} ${user.username} ${on ? 'to' : 'from'} ${group}`);
      await waitText(page, '.Toastify', 'Membership updated');
      await until(
        async () => (await members()).includes(user.username) === on,
        async () => `GET @groups/${group} has the users ${JSON.stringify(await members())}`,
      );
      await until(
        async () => (await groupsOf()).includes(group) === on,
        async () => `GET @users/${user.username} has the groups ${JSON.stringify(await groupsOf())}`,
      );
      // The panel lists the users again and shows the tick as the server has it.
      await until(
        async () => (await ticked()) === on,
        () => `after the change the ${group} checkbox is ${on ? 'not ticked' : 'still ticked'}`,
      );
    };
    await s(`ticks ${group} for the user`, () => setMember(true));
    await s(`unticks ${group} again`, () => setMember(false));
  });

  flow(`${FLOW}: a password reset by mail`, async (page, s) => {
    let user;
    let sink;
    let oldMail;
    let link;
    const newPassword = `e2e-reset-${RUN}-secret`;
    try {
      await s('makes a user (REST API), points the mail panel at an SMTP sink', async () => {
        user = await apiUser('reset', RUN);
        oldMail = (await api('GET', '/@controlpanels/mail')).data;
        sink = await smtpSink();
        await api('PATCH', '/@controlpanels/mail', {
          smtp_host: '127.0.0.1',
          smtp_port: sink.port,
          smtp_security: 'none',
          email_from_address: 'site@example.org',
        });
        const stored = (await api('GET', '/@controlpanels/mail')).data;
        assert(stored?.smtp_port === sink.port, `@controlpanels/mail holds ${JSON.stringify(stored)}`);
      });

      await s('an anonymous visitor asks for a reset at /passwordreset', async () => {
        await page.goto(`${V}/passwordreset`, { waitUntil: 'networkidle2' });
        await waitText(page, '#page-password-reset', 'Forgot your password?');
        await fill(page, 'username', user.username);
        const asked = answerTo(page, 'POST', new RegExp(`/@users/${user.username}/reset-password$`));
        await page.click('#page-password-reset .actions button[type="submit"]');
        await check(asked, 'asking for the reset mail');
        await waitText(page, 'h1.documentFirstHeading', 'Password reset confirmation sent');
      });

      await s('the mail with the reset link arrives', async () => {
        const mine = () => sink.mails.find((m) => m.to.some((t) => t.includes(user.email)));
        await until(
          async () => mine(),
          () => `no mail to ${user.email} within 20 s; the sink has ${sink.mails.length} mail(s)`,
          20000,
        );
        const texts = mailTexts(mine().raw);
        const re = /https?:\/\/[^\s"'<>]+\/passwordreset\/[^\s"'<>]+/;
        const found = texts.map((t) => t.match(re)?.[0]).find(Boolean);
        assert(found, `the mail has no /passwordreset/<token> link:\n${mine().raw.slice(0, 1500)}`);
        link = new URL(found);
        console.log(`         the mail's link: ${link.href}`);
        const userid = link.searchParams.get('userid');
        assert(userid === user.username, `the link's userid is ${JSON.stringify(userid)}`);
      });

      await s('sets a new password at the link (in Volto)', async () => {
        // The link's path from /passwordreset on, with Volto's address (Volto's route is
        // /passwordreset/:token).
        const rest = link.pathname.slice(link.pathname.indexOf('/passwordreset/'));
        await page.goto(`${V}${rest}${link.search}`, { waitUntil: 'networkidle2' });
        await waitText(page, '#page-password-reset', 'Set your password');
        await fill(page, 'username', user.username);
        await fill(page, 'password', newPassword);
        await fill(page, 'passwordRepeat', newPassword);
        const set = answerTo(page, 'POST', new RegExp(`/@users/${user.username}/reset-password$`));
        await page.click('#page-password-reset .actions button[type="submit"]');
        await check(set, 'setting the new password');
        await waitText(page, 'h1.documentFirstHeading', 'Account activation completed');
        assert(!(await canLogIn(user.username, user.password)), 'the old password still logs in');
      });

      await s('logs in through /login with the new password', () =>
        voltoLogin(page, user.username, newPassword),
      );

      // Last, so that what it finds does not hide the steps above: the link as mailed (its token
      // is spent, but the form shows before it is sent) must be Volto's route, on Volto's address.
      const name = 'the link as mailed opens the "Set your password" form (fresh browser context)';
      await inFreshContext(page, `${FLOW}: a password reset by mail`, name, async (other) => {
        await other.goto(link.href, { waitUntil: 'networkidle2' });
        const seen = await other.evaluate(() => ({
          h1: document.querySelector('h1')?.textContent.trim(),
          title: document.title,
        }));
        const form = await other.$('#page-password-reset');
        const text = form ? await form.evaluate((f) => f.textContent) : '';
        assert(
          text.includes('Set your password'),
          `${link.href} shows no "Set your password" form (h1 ${JSON.stringify(seen.h1)}, title ${JSON.stringify(
            seen.title,
          )}); Volto's route is ${V}/passwordreset/<token>`,
        );
      });
    } finally {
      if (oldMail) {
        const { smtp_port, smtp_security, email_from_address } = oldMail;
        const back = { smtp_host: '', smtp_port, smtp_security, email_from_address };
        await api('PATCH', '/@controlpanels/mail', back).catch((e) => console.log(`         restoring: ${e.message}`));
      }
      await sink?.close();
    }
  });

  flow(`${FLOW}: personal information`, async (page, s) => {
    let user;
    const newName = `E2E Renamed ${RUN}`;
    await s('makes a user (REST API), who logs in', async () => {
      user = await apiUser('info', RUN);
      await voltoLogin(page, user.username, user.password);
    });

    await s('changes the full name at /personal-information', async () => {
      await page.goto(`${V}/personal-information`, { waitUntil: 'networkidle2' });
      await page.waitForFunction(
        (v) => document.querySelector('#field-fullname')?.value === v,
        { timeout: 15000 },
        user.fullname,
      );
      await fill(page, 'fullname', newName);
      const patched = answerTo(page, 'PATCH', new RegExp(`/@users/${user.username}$`));
      await page.click('.actions button[type="submit"]');
      await check(patched, 'saving the personal information');
      await waitText(page, '.Toastify', 'Saved');
      const now = (await api('GET', `/@users/${user.username}`)).fullname;
      assert(now === newName, `GET @users/${user.username} has fullname ${JSON.stringify(now)}`);
    });
  });

  flow(`${FLOW}: change password`, async (page, s) => {
    let user;
    const newPassword = `e2e-changed-${RUN}-secret`;
    await s('makes a user (REST API), who logs in', async () => {
      user = await apiUser('passwd', RUN);
      await voltoLogin(page, user.username, user.password);
    });

    await s('changes the password at /change-password', async () => {
      await page.goto(`${V}/change-password`, { waitUntil: 'networkidle2' });
      await waitSel(page, '#page-change-password #field-oldPassword');
      await fill(page, 'oldPassword', user.password);
      await fill(page, 'newPassword', newPassword);
      await fill(page, 'newPasswordRepeat', newPassword);
      const posted = answerTo(page, 'POST', new RegExp(`/@users/${user.username}/reset-password$`));
      await page.click('#page-change-password .actions button[type="submit"]');
      await check(posted, 'changing the password');
      await waitText(page, '.Toastify', 'Changes saved');
      assert(!(await canLogIn(user.username, user.password)), 'the old password still logs in');
    });

    const name = 'logs in with the new password (fresh browser context)';
    await inFreshContext(page, `${FLOW}: change password`, name, (other) =>
      voltoLogin(other, user.username, newPassword),
    );
  });
}
