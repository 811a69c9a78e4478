// Drives the memory explorer at REALM_URL/ui in Debian's chromium, as a person would:
// opens a space with the API key, runs a recall that fails (its progress cleared) and one
// that draws its trace (the nodes named by their content), marks two nodes useful and one
// misleading and sends the feedback (the button disabled meanwhile), opens the memory
// misled on (the learned link with its label and query), finds the reconsolidation in the
// timeline, opens its trace (plans, seeds, scores, validity; its memories named with one
// request) and reverts it, opens one
// memory, asks again with a min score (the lower nodes left out, listed in the trace) and
// with a K out of range (said so), opens the space again from the list of spaces that Open
// with no space shows (the error of a space not found gone), finds a corrected memory
// marked superseded with its validity, types a key without pressing Open (not used) and,
// with a read-only key, is offered no feedback. Each check that fails ends the run
// with exit status 1 and says what it saw. The last line printed is a JSON summary
// (the trace id, the number of edits applied) that the Go test checks through the API.
//
// Environment: REALM_URL, REALM_SPACE, REALM_KEY (the API key the page is given),
// REALM_READ_KEY (a key with the read scope only), REALM_SUPERSEDED (words of a memory a
// correction superseded), REALM_QUERY (the question), CHROMIUM (default /usr/bin/chromium), SCREENSHOTS (a
// directory: when set, PNGs of the views are written there).

import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const env = (name, fallback) => {
  const v = process.env[name] || fallback;
  if (v === undefined) throw new Error(`${name} is required`);
  return v;
};
const base = env('REALM_URL');
const space = env('REALM_SPACE');
const key = env('REALM_KEY');
const readKey = env('REALM_READ_KEY');
const supersededWords = env('REALM_SUPERSEDED');
const question = env('REALM_QUERY');
const shots = process.env.SCREENSHOTS || '';

function check(ok, what) {
  if (!ok) throw new Error(`check failed: ${what}`);
  console.log(`ok: ${what}`);
}

async function shoot(page, name) {
  if (shots) await page.screenshot({ path: join(shots, `ui-${name}.png`), fullPage: true });
}

const profile = mkdtempSync(join(tmpdir(), 'realm-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: env('CHROMIUM', '/usr/bin/chromium'),
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  viewport: { width: 1500, height: 950 },
});
const errors = [];
let status = 0;
try {
  const page = context.pages()[0] || await context.newPage();
  page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    // The first request, made before the key is typed, is refused with 401 on purpose, a
    // space that does not exist (404) and one of other characters (400) are opened on
    // purpose, and a recall is answered 503.
    if (msg.type() === 'error' && !/\b(400|401|404|503)\b/.test(msg.text())) errors.push(`console: ${msg.text()}`);
  });
  page.setDefaultTimeout(120_000); // a recall on a loaded machine takes seconds
  const recallBodies = []; // what the page sent to /recall, in order
  const memoryLookups = []; // the paths of the page's GETs of memories since last emptied
  page.on('request', (req) => {
    if (req.method() === 'POST' && req.url().endsWith('/recall')) recallBodies.push(JSON.parse(req.postData() || '{}'));
    const url = new URL(req.url());
    if (req.method() === 'GET' && url.pathname.includes('/memories')) memoryLookups.push(url.pathname + url.search);
  });

  // Spaces: refused without the key, then the statistics and the memories with it.
  await page.goto(`${base}/ui/#/spaces/${space}`);
  await page.locator('#status.error').waitFor();
  check((await page.locator('#status').textContent()).includes('API key'), 'without a key the page asks for one');
  await page.fill('#key', key);
  await page.click('#connection button');
  await page.locator('#card-memories h3').waitFor();
  const memories = parseInt(await page.locator('#card-memories h3').textContent(), 10);
  check(memories > 0, `the space shows ${memories} memories`);
  await page.locator('table.memories tbody tr').first().waitFor();
  check(await page.locator('#card-weights svg rect').count() === 10, 'the weight histogram has ten bins');
  await page.locator(`#space-list option[value="${space}"]`).waitFor({ state: 'attached' });
  console.log('ok: the space input suggests the spaces the key reaches');
  await shoot(page, 'spaces');

  // Recall: a recall that fails leaves no progress behind.
  await page.click('#nav-recall');
  await page.fill('#query', question);
  await page.route('**/recall', (route) => route.fulfill({ status: 503, contentType: 'application/problem+json',
    body: JSON.stringify({ code: 'unavailable', detail: 'the embedder is away' }) }), { times: 1 });
  await page.click('#recall-form button[type=submit]');
  await page.locator('#status.error').waitFor();
  check(!(await page.locator('#recall-result').textContent()).includes('Recalling'), 'a failed recall clears its progress');
  check(!(await page.locator('#recall-form button[type=submit]').isDisabled()), 'a failed recall can be sent again');
  recallBodies.length = 0;

  // Recall: the evidence ranked, each node by its content, and the trace drawn as a graph.
  await page.click('#recall-form button[type=submit]');
  await page.locator('#trace-graph svg g.node').first().waitFor();
  const drawn = await page.locator('#trace-graph svg g.node').count();
  const evidence = await page.locator('ol.evidence li').count();
  const links = await page.locator('#trace-graph svg line.link').count();
  check(evidence > 1 && drawn >= evidence, `the trace draws ${drawn} nodes for ${evidence} returned`);
  check(links >= drawn, `every drawn node is linked to where it came from (${links} links)`);
  const traceId = await page.locator('.trace-panel').getAttribute('data-trace-id');
  check(/^[0-9a-f-]{36}$/.test(traceId || ''), `the trace panel names trace ${traceId}`);
  check(await page.locator('.trace-panel a.trace-link').getAttribute('href') === `#/trace/${space}/${traceId}`,
    'the trace panel links to the trace view');
  check(recallBodies.length === 1 && !('min_score' in recallBodies[0]), 'an empty min score is not sent');
  check(await page.locator('#below-min-score').count() === 0, 'without a min score no node is listed below it');
  const scoreOf = (text) => parseFloat(/score (\d+\.\d+)/.exec(text)[1]);
  const scores = (await page.locator('ol.evidence li').allTextContents()).map(scoreOf);
  const apiGet = async (path) => (await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${key}` } })).json();
  const firstId = await page.locator('ol.evidence li').first().getAttribute('data-id');
  const { memory: first } = await apiGet(`/v1/spaces/${space}/memories/${firstId}`);
  const firstText = await page.locator('ol.evidence li a.memory-link').first().textContent();
  check(firstText === (first.content.length > 60 ? `${first.content.slice(0, 59)}…` : first.content),
    `the evidence names a memory by its content ("${firstText}", named ${first.name})`);

  // Feedback: two nodes useful, the last one misleading, the answer correct; the edits applied are listed.
  await page.locator('ol.evidence li button.useful').nth(0).click();
  await page.locator('ol.evidence li button.useful').nth(1).click();
  await page.locator('ol.evidence li button.misleading').last().click();
  check(await page.locator('ol.evidence li[data-mark="useful"]').count() === 2, 'two nodes are marked useful');
  check(await page.locator('ol.evidence li[data-mark="misleading"]').count() === 1, 'one node is marked misleading');
  await page.selectOption('#correct', 'true');
  let sending = null; // the button while the feedback is sent
  await page.route('**/feedback', async (route) => {
    sending = await page.locator('#send-feedback').evaluate((b) => b.disabled && b.textContent);
    await route.continue();
  }, { times: 1 });
  await page.click('#send-feedback');
  await page.locator('#feedback-result h3').waitFor();
  check(sending === 'Sending…', `the button is disabled while the feedback is sent (${sending})`);
  const applied = parseInt(await page.locator('#feedback-result h3').textContent(), 10);
  check(applied > 0, `feedback applied ${applied} edits`);
  check(await page.locator('#feedback-result table.edits tbody tr').count() === applied, 'each edit is listed');
  await shoot(page, 'recall');

  // The memory misled on: its learned link says its label and the query it carries.
  const misled = await page.locator('ol.evidence li[data-mark="misleading"]').getAttribute('data-id');
  await page.goto(`${base}/ui/#/memory/${space}/${misled}`);
  await page.locator('table.edges').waitFor();
  const learned = await page.locator('table.edges tr.learned').allTextContents();
  check(learned.some((x) => x.includes('misleading') && x.includes(`"${question}"`)),
    `the memory's learned link says it misleads for the question (${learned.join('; ')})`);

  // Reconsolidation: the feedback's reconsolidation is the newest; revert removes it.
  await page.click('#nav-edits');
  const newest = page.locator('ol.timeline > li.edit-group').first();
  await newest.waitFor();
  check(await newest.locator('table.edits tbody tr').count() === applied, 'the timeline shows the edits just applied');
  check(await newest.locator('svg.edits line.edge.after').count() === applied, 'its graph draws each edge after the edit');
  await shoot(page, 'reconsolidation');

  // Its trace: the plans, seeds, scores and validity of the recall.
  check(await newest.locator('a.trace-link').textContent() === traceId, 'the timeline names the whole trace id');
  memoryLookups.length = 0;
  await newest.locator('a.trace-link').click();
  await page.locator(`h2:has-text("Trace ${traceId}")`).waitFor();
  check(memoryLookups.length === 1 && /\/memories\?(.*&)?ids=/.test(memoryLookups[0]),
    `the trace view names its memories with one lookup by ids (${memoryLookups.join(', ')})`);
  check(await page.locator('p.content').textContent() === question, 'the trace view shows the question');
  check(await page.locator('ul.plans li').count() > 0, 'the trace view lists the plans');
  check(await page.locator('ol.seeds li').count() > 0, 'the trace view lists the seeds');
  check(await page.locator('ol.scores li').count() >= scores.length, 'the trace view scores each returned node');
  check(await page.locator('table.validity, #no-validity').count() === 1, 'the trace view says what validity did');
  await page.click('#nav-edits');
  await newest.waitFor();
  let reverting = null;
  await page.route('**/revert', async (route) => {
    reverting = await page.locator('button.revert[disabled]').first().textContent();
    await route.continue();
  }, { times: 1 });
  await newest.locator('button.revert').click();
  await page.locator('ol.timeline > li.edit-group.reverted').first().waitFor();
  const reverted = page.locator('ol.timeline > li.edit-group').first();
  check(await reverted.locator('button.revert').count() === 0, 'the reverted reconsolidation offers no revert');
  check(await reverted.locator('tr.reverted').count() === applied, 'each of its edits is marked reverted');
  check(reverting === 'Reverting…', `the button is disabled while the revert runs (${reverting})`);

  // A memory: content, edges and neighbourhood.
  await reverted.locator('a.memory-link').first().click();
  await page.locator('svg.neighbourhood').waitFor();
  check((await page.locator('p.content').textContent()).length > 0, 'the memory shows its content');
  check(await page.locator('table.edges tbody tr').count() > 0, 'the memory lists its edges');
  await shoot(page, 'memory');

  // Min score: the same question with a cut-off between the best and the worst score leaves
  // the lower nodes out, and the trace lists them with their scores.
  const [best, worst] = [Math.max(...scores), Math.min(...scores)];
  if (best - worst > 0.002) {
    const cutOff = Number(((best + worst) / 2).toFixed(3));
    await page.click('#nav-recall');
    await page.fill('#query', question);
    await page.fill('#min-score', String(cutOff));
    await page.click('#recall-form button[type=submit]');
    await page.locator('#below-min-score li').first().waitFor();
    check(recallBodies.at(-1).min_score === cutOff, `the recall sends min_score ${cutOff}`);
    const kept = (await page.locator('ol.evidence li').allTextContents()).map(scoreOf);
    const below = (await page.locator('#below-min-score li').allTextContents()).map(scoreOf);
    check(kept.every((x) => x >= cutOff) && below.every((x) => x <= cutOff),
      `nodes at or above ${cutOff} are returned (${kept.join(', ')}), those below listed in the trace (${below.join(', ')})`);
    check(kept.length + below.length <= 10, 'returned and left out together are at most K');
    check((await page.locator('#below-min-score p').textContent()).includes(`min score ${cutOff.toFixed(3)}`),
      'the trace names the cut-off');
  } else {
    console.log(`skipped: the min score step (every score within 0.002 of ${best})`);
  }
  await page.fill('#k', '0');
  await page.click('#recall-form button[type=submit]');
  await page.locator('#status.error').waitFor();
  check((await page.locator('#status').textContent()).startsWith('k: '), 'a K out of range is said so');
  await page.fill('#k', '10');

  // No space chosen: Open lists the spaces the key reaches, each opening its view; the error
  // of a space not found before is gone. A space typed in the hash is encoded once.
  const [asked] = await Promise.all([page.waitForRequest((req) => req.url().includes('/v1/spaces/no')),
    page.goto(`${base}/ui/#/spaces/no%20such-space`)]);
  check(asked.url().includes('/v1/spaces/no%20such-space/'), `a space in the hash is encoded once (${asked.url()})`);
  await page.locator('#status.error').waitFor();
  await page.fill('#space', '');
  await page.click('#connection button');
  const listed = page.locator(`ul.space-list a[href="#/spaces/${space}"]`);
  await listed.waitFor();
  check(await page.locator('#status').textContent() === '', 'the list of spaces shows no error of the space left');
  await listed.click();
  await page.locator('#card-memories h3').waitFor();
  check(await page.inputValue('#space') === space, 'the list of spaces opens one');

  // A memory a correction superseded is marked so in the list.
  await page.fill('#search input[name=q]', supersededWords);
  await page.click('#search button');
  await page.locator('table.memories span.badge.superseded').first().waitFor();
  console.log('ok: the memory list marks a superseded memory');
  await page.locator('table.memories tr:has(span.badge.superseded) a.memory-link').first().click();
  await page.locator('table.fields').waitFor();
  check(await page.locator('table.fields tr:has(th:text-is("valid until"))').count() === 1, 'a superseded memory says until when it held');

  // A key typed is used once Open is pressed, not before.
  await page.fill('#key', 'typed-but-not-opened');
  await page.click('#nav-spaces');
  await page.locator('#card-memories h3, #status.error').first().waitFor();
  check(await page.locator('#status.error').count() === 0, `a key not opened is not sent (${await page.locator('#status').textContent()})`);

  // A read-only key recalls but is offered no feedback.
  await page.fill('#key', readKey);
  await page.click('#connection button');
  await page.locator('#card-memories h3').waitFor();
  await page.click('#nav-recall');
  await page.fill('#query', question);
  await page.click('#recall-form button[type=submit]');
  await page.locator('ol.evidence li, #status.error').first().waitFor();
  check(await page.locator('#status.error').count() === 0, `a read-only key recalls (${await page.locator('#status').textContent()})`);
  check(await page.locator('#send-feedback').isDisabled(), 'a read-only key is offered no feedback');

  check(errors.length === 0, `no page or console errors${errors.length ? `: ${errors.join('; ')}` : ''}`);
  console.log(JSON.stringify({ trace_id: traceId, edits_applied: applied }));
} catch (err) {
  console.error(err.message);
  if (errors.length) console.error(errors.join('\n'));
  status = 1;
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
process.exit(status);
