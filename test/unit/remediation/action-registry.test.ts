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
