// Comments in Volto: on a page that allows discussion, an editor comments, replies to the
// comment and deletes it with its reply, through Volto's comment form and actions.
import { env, step, assert, waitText, waitSel, api } from './lib.mjs';
import { voltoLogin, apiPage } from './volto.mjs';

const V = env.volto;

// The conversation as the API lists it, polled until `done` holds.
async function conversationUntil(path, done, what) {
  const deadline = Date.now() + 15000;
  let listed;
  while (Date.now() < deadline) {
    listed = await api('GET', `${path}/@comments`);
    if (done(listed)) return listed;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what}: @comments lists ${JSON.stringify(listed?.items?.map((c) => c.text.data))}`);
}

// Types into the comment form inside `scope` and submits it.
async function submitComment(page, scope, text) {
  const field = await waitSel(page, `${scope} textarea`);
  await field.click();
  await page.keyboard.type(text, { delay: 5 });
  await (await waitSel(page, `${scope} button[type="submit"]`)).click();
}

export function addCommentsFlows(flow, RUN) {
  flow('editor comments, replies and deletes', async (page, s) => {
    let p;
    const first = `First comment ${RUN}`;
    const answer = `A reply ${RUN}`;
    await s('opens a page that allows discussion', async () => {
      p = (await apiPage(`e2e-comments-${RUN}`, `E2E comments ${RUN}`, [])).path;
      await api('PATCH', p, { allow_discussion: true });
      await voltoLogin(page);
      await page.goto(`${V}${p}`, { waitUntil: 'networkidle2' });
      await waitSel(page, '#comment-add-id textarea', 20000);
    });
    await s('adds a comment', async () => {
      await submitComment(page, '#comment-add-id', first);
      await waitText(page, '#discussion .comment', first);
      const listed = await conversationUntil(p, (c) => c.items_total === 1, 'the comment is not stored');
      assert(listed.items[0].author_username === 'admin', `author ${listed.items[0].author_username}`);
    });
    await s('replies to it', async () => {
      const listed = await api('GET', `${p}/@comments`);
      const id = listed.items[0].comment_id;
      await (await waitSel(page, `[id="${id}"] a[aria-label="Reply"]`)).click();
      await submitComment(page, `[id="reply-place-${id}"]`, answer);
      await waitText(page, '#discussion .comment', answer);
      const after = await conversationUntil(p, (c) => c.items_total === 2, 'the reply is not stored');
      assert(after.items[1].in_reply_to === id, `the reply answers ${after.items[1].in_reply_to}, not ${id}`);
    });
    await s('deletes the comment with its reply', async () => {
      const listed = await api('GET', `${p}/@comments`);
      const id = listed.items[0].comment_id;
      await (await waitSel(page, `[id="${id}"] > .content > .actions a[aria-label="Delete"]`)).click();
      await conversationUntil(p, (c) => c.items_total === 0, 'the comments are not deleted');
      await page.waitForFunction(
        (t) => !document.querySelector('#discussion')?.textContent.includes(t),
        { timeout: 15000 },
        first,
      );
    });
  });
}
