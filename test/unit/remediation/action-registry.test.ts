/** Every action file is registered once in src/remediation/actions/index.ts, under its own id (= file name). */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ACTIONS } from '../../../src/remediation/actions/index.js';

const HELPERS = new Set(['index', 'canary-shape']);

describe('action registry', () => {
  it('registers every action file under its id', () => {
    const files = readdirSync(path.resolve('src/remediation/actions'))
      .map((f) => f.replace(/\.ts$/, ''))
      .filter((f) => !HELPERS.has(f));
    expect(Object.keys(ACTIONS).sort()).toEqual(files.sort());
    for (const [key, action] of Object.entries(ACTIONS)) expect(action.id).toBe(key);
  });
});

describe('Approve button labels', () => {
  it('each action names its own change, from its params (a renderer never reads them)', () => {
    const plan = { changes: [] } as never;
    expect(ACTIONS['raise-memory-limit'].label(plan, { to: '512Mi' }, 'OOM_KILLED')).toBe('Raise to 512Mi');
    expect(ACTIONS['rollback-canary'].label(plan, { previous: 'm-00001' }, null)).toBe('Roll back to m-00001');
    expect(ACTIONS['set-canary-traffic'].label(plan, { canaryPercent: 25 }, null)).toBe('Set canary to 25%');
    expect(ACTIONS['skip-tag-resolution'].label(plan, { registry: '10.0.0.1:5000' }, null)).toBe(
      'Skip tag resolution for 10.0.0.1:5000',
    );
    expect(ACTIONS['lower-max-model-len'].label(plan, { tokens: 23648 }, null)).toBe('Set --max-model-len=23648');
    expect(ACTIONS['promote-canary'].label(plan, {}, null)).toBe('Promote the canary to 100%');
  });

  it('a restart waits for the fix when its finding code says restarting helps only after it (catalog fixBeforeRestart)', () => {
    const plan = { changes: [] } as never;
    expect(ACTIONS['restart-pods'].label(plan, {}, 'STORAGE_URI_NOT_FOUND')).toBe('Restart pods (after the fix)');
    expect(ACTIONS['restart-pods'].label(plan, {}, 'CRASH_LOOP')).toBe('Restart pods');
    expect(ACTIONS['restart-pods'].label(plan, {}, null)).toBe('Restart pods');
  });
});
