#!/usr/bin/env node
// `npm run screenshots`: starts the playground, drives it in headless Chromium (Debian's, through
// playwright-core) through the main flows and writes what the page shows to docs/images/:
// the diagnose thread (verdict, deciding evidence, the fix right under it), an approval, the rollout
// message and a proposal it asked for, an incident and its recovery, and /isvc status.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fastBuild } from './fast-build.mjs';
import { launchChromium } from '../test/support/headless-chromium.mjs';

const OUT = 'docs/images';
const VIEWPORT = { width: 1480, height: 920 };

function warnWithoutEmojiFont() {
  try {
    if (!/emoji/i.test(execFileSync('fc-list', { encoding: 'utf8' }))) throw new Error('none');
  } catch {
    console.error(
      'screenshots: no emoji font found (fc-list): emoji will show as boxes; Debian: apt-get install -y fonts-noto-color-emoji',
    );
  }
}

async function main() {
  warnWithoutEmojiFont();
  await fastBuild();
  const { startPlayground } = await import('../dist/src/playground/playground.js');
  const playground = await startPlayground({ port: 0, log: (line) => console.error(line) });
  const browser = await launchChromium({ viewport: VIEWPORT });
  try {
    await run(browser.page, playground.url);
  } finally {
    await browser.close();
    await playground.close();
  }
}

async function run(page, url) {
  mkdirSync(OUT, { recursive: true });
  await page.goto(url);
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.waitForSelector('body.ready');
  const as = (name) => page.locator('#people label', { hasText: name }).locator('input').check();
  const send = async (text, where = '#composer-input') => {
    await page.fill(where, text);
    await page.press(where, 'Enter');
  };
  const thread = page.locator('#thread-messages');
  // an Approve button says what it does ("✅ Raise to 512Mi", "✅ Promote the canary to 100%")
  const APPROVE = /Raise to|Roll back to|Promote the canary to|Set canary to|Restart pods|Skip tag|Approve/;
  const shot = async (name) => {
    await page.waitForTimeout(300); // the last render settles (fonts, scroll)
    await page.screenshot({ path: `${OUT}/${name}.png` });
    console.error(`screenshots: ${OUT}/${name}.png`);
  };

  // 1. diagnose: the root message and the thread with the root cause and the proposed fix
  await as('carol');
  await send('/isvc diagnose fraud-model -n ml-team');
  const root = page.locator('#messages article.message', { hasText: 'ml-team/fraud-model' });
  await root.locator('.thread-summary').click({ timeout: 30_000 });
  await thread.getByRole('button', { name: APPROVE }).waitFor({ timeout: 30_000 });
  await page.click('[data-isvc="ml-team/fraud-model"]');
  await thread.locator('.bk-section', { hasText: 'Root cause' }).first().scrollIntoViewIfNeeded();
  await shot('playground-diagnose');

  // 2. approval: a non-approver is refused (ephemeral), the approver's click lands in the cluster
  await thread.getByRole('button', { name: APPROVE }).click();
  await thread.locator('article.ephemeral', { hasText: 'NOT_APPROVER' }).waitFor({ timeout: 20_000 });
  await as('alice');
  await thread.getByRole('button', { name: APPROVE }).click();
  await thread.getByText('Verified', { exact: false }).first().waitFor({ timeout: 60_000 });
  await page.locator('#isvc-yaml .yaml-line.changed', { hasText: '512Mi' }).first().scrollIntoViewIfNeeded();
  await as('carol');
  await thread.locator('article.message').last().scrollIntoViewIfNeeded();
  await shot('playground-approval');

  // 3. rollout: one message with the revisions and the buttons; Promote asks for a proposal, whose risky Approve confirms
  await page.click('#thread-close');
  await send('/isvc rollout ranker -n recsys');
  const rollout = page.locator('#messages article.message', { hasText: 'Rollout of recsys/ranker' }).last();
  await rollout.getByRole('button', { name: 'Promote the canary' }).click({ timeout: 30_000 });
  await rollout.locator('.thread-summary').click({ timeout: 30_000 });
  await thread.getByRole('button', { name: APPROVE }).first().waitFor({ timeout: 30_000 });
  await page.click('[data-isvc="recsys/ranker"]');
  await as('alice');
  const confirmable = thread.locator('button.bk-button[data-confirm]').first();
  await confirmable.scrollIntoViewIfNeeded();
  await confirmable.click();
  await page.locator('#confirm[open]').waitFor();
  await shot('playground-rollout');
  await page.locator('#confirm button[value="deny"]').click();

  // 4. incident: break a service, the watcher's post, the fix from the thread, the recovery
  await page.click('#thread-close');
  await page.click('[data-isvc="ml-team/churn-model"]');
  await page.click('[data-break="lower-memory"]');
  await page.click('[data-channel-id="C0ALERTS"]');
  const incident = page.locator('#messages article.message', { hasText: 'ml-team/churn-model' });
  await incident.getByText('has not been ready', { exact: false }).waitFor({ timeout: 60_000 });
  await incident.locator('.thread-summary').click();
  // the proposal comes with the incident, in its thread
  await thread.getByRole('button', { name: APPROVE }).last().waitFor({ timeout: 30_000 });
  await as('bob');
  await thread.getByRole('button', { name: APPROVE }).last().click();
  await incident.getByText('recovered', { exact: false }).waitFor({ timeout: 90_000 });
  await thread.locator('article.message').last().scrollIntoViewIfNeeded();
  await shot('playground-incident');

  // 5. status of a namespace
  await page.click('#thread-close');
  await page.click('[data-channel-id="C0MLPLATFORM"]');
  await send('/isvc status -n ml-team');
  await page.locator('#messages article.message', { hasText: 'churn-model' }).last().waitFor({ timeout: 30_000 });
  await page.waitForTimeout(1000);
  await shot('playground-status');
}

await main();
