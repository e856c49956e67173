/**
 * The playground in a real browser (Debian's chromium through playwright-core): the real bot as a
 * child process, its own Redis, the simulator and the Slack stand-in. A person types a slash
 * command and reads the root cause in the thread; a non-approver's Approve is refused ephemerally
 * (seen by them only); the approver's click lands in the cluster panel's YAML; a broken service
 * gets the watcher's incident post and, once fixed from its thread, the recovery. The page asks for
 * nothing beyond the playground's own origin.
 */
import { jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import { launchChromium } from '../support/headless-chromium.mjs';
import { ensureFreshDist } from '../support/fresh-dist.js';
import { startPlayground, type RunningPlayground } from '../../src/playground/playground.js';

jest.setTimeout(180_000);

let playground: RunningPlayground | undefined;
let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
let page: Page;
const requested: string[] = [];

beforeAll(async () => {
  browser = await launchChromium({ viewport: { width: 1600, height: 1000 } });
  await ensureFreshDist();
  // its own Redis (env without REDIS_URL): the bot's queues must not meet other tests' bots
  playground = await startPlayground({ port: 0, env: { PATH: process.env.PATH } });
  page = browser.page;
  page.on('request', (r) => requested.push(r.url()));
  await page.goto(playground.url);
  await page.waitForSelector('body.ready');
});

afterAll(async () => {
  await browser?.close();
  await playground?.close();
});

const as = async (name: string) => {
  await page.locator('#people label', { hasText: name }).locator('input').check();
};
const thread = () => page.locator('#thread-messages');

async function send(text: string, where = '#composer-input'): Promise<void> {
  await page.fill(where, text);
  await page.press(where, 'Enter');
}

it('/isvc diagnose in the message box: the root message, then the root cause in its thread', async () => {
  await as('carol');
  await send('/isvc diagnose fraud-model -n ml-team');
  const root = page.locator('#messages article.message', { hasText: 'ml-team/fraud-model' });
  await root.locator('.thread-summary').waitFor({ timeout: 30_000 });
  await root.locator('.thread-summary').click();
  await thread().getByText('Root cause', { exact: false }).first().waitFor();
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's Locator.innerText() (the rendered text), not the DOM property
  await expect(thread().innerText()).resolves.toContain('OOM_KILLED');
  await thread()
    .getByRole('button', { name: /Raise to|Approve/ })
    .waitFor({ timeout: 30_000 });
});

it("a non-approver's Approve is refused, ephemerally: only they see it, and the limit stays", async () => {
  await thread()
    .getByRole('button', { name: /Raise to|Approve/ })
    .click();
  const refusal = thread().locator('article.ephemeral', { hasText: 'NOT_APPROVER' });
  await refusal.waitFor({ timeout: 20_000 });
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's Locator.innerText() (the rendered text), not the DOM property
  await expect(refusal.innerText()).resolves.toContain('Only visible to you');
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's Locator.innerText() (the rendered text), not the DOM property
  await expect(page.locator('#isvc-yaml').innerText()).resolves.toContain('memory: 256Mi');
  await as('alice');
  await expect(thread().locator('article.ephemeral', { hasText: 'NOT_APPROVER' }).count()).resolves.toBe(0);
});

it("the approver's click applies the fix: the cluster panel shows the new limit, the thread the verification", async () => {
  await thread()
    .getByRole('button', { name: /Raise to|Approve/ })
    .click();
  await page.locator('#isvc-yaml .yaml-line', { hasText: 'memory: 512Mi' }).first().waitFor({ timeout: 30_000 });
  await thread().getByText('Verified', { exact: false }).first().waitFor({ timeout: 60_000 });
  await page.locator('[data-isvc="ml-team/fraud-model"] .state-ready').waitFor();
  // the root message in the channel is the verdict: it now says who fixed it, not the OOM
  const root = page.locator('#messages article.message', { hasText: 'ml-team/fraud-model' });
  await root.getByText('Fixed by', { exact: false }).waitFor({ timeout: 30_000 });
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's Locator.innerText() (the rendered text), not the DOM property
  await expect(root.innerText()).resolves.not.toContain('OOM_KILLED');
});

it('breaking a service brings the incident post with the fix in its thread; approving it brings the recovery', async () => {
  await page.click('[data-isvc="ml-team/churn-model"]');
  await page.click('[data-break="lower-memory"]');
  await page.locator('[data-isvc="ml-team/churn-model"] .state-not-ready').waitFor({ timeout: 20_000 });
  await page.click('[data-channel-id="C0ALERTS"]');
  const incident = page.locator('#messages article.message', { hasText: 'ml-team/churn-model' });
  await incident.getByText('has not been ready', { exact: false }).waitFor({ timeout: 60_000 });
  await incident.locator('.thread-summary').click();
  // the incident's thread carries the proposal, as /isvc diagnose's does: no need to ask again
  await thread()
    .getByRole('button', { name: /Raise to|Approve/ })
    .last()
    .waitFor({ timeout: 30_000 });
  await thread().getByText('Offered with the incident', { exact: false }).first().waitFor();
  await as('bob');
  await thread()
    .getByRole('button', { name: /Raise to|Approve/ })
    .last()
    .click();
  await incident.getByText('recovered', { exact: false }).waitFor({ timeout: 90_000 });
  await page.locator('[data-isvc="ml-team/churn-model"] .state-ready').waitFor();
});

it('the cluster panel lists the LLMInferenceServices, tagged, and shows their YAML', async () => {
  const row = page.locator('[data-isvc="llm/qwen3-coder"]');
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's Locator.innerText() (the rendered text), not the DOM property
  await expect(row.locator('.kind-tag').innerText()).resolves.toBe('llmisvc');
  await row.click();
  await page.locator('#isvc-yaml .yaml-line', { hasText: 'kind: LLMInferenceService' }).first().waitFor();
  await page.locator('[data-isvc="llm/qwq-32b"]').waitFor();
});

it("an LLMInferenceService's fix from the cluster panel turns its row Ready, live", async () => {
  await page.click('[data-isvc="llm/qwen3-coder"]');
  await page.locator('[data-isvc="llm/qwen3-coder"] .state-not-ready').waitFor();
  await page.click('[data-break="set-max-model-len"]');
  await page.locator('[data-isvc="llm/qwen3-coder"] .state-ready').waitFor({ timeout: 20_000 });
  await page.locator('#isvc-yaml .yaml-line', { hasText: '--max-model-len' }).first().waitFor();
});

it('the page asked for nothing beyond the playground itself', () => {
  expect(requested.length).toBeGreaterThan(5);
  expect(requested.filter((url) => !url.startsWith(`${playground!.url}/`))).toEqual([]);
});
