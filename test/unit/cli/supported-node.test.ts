/** The CLI refuses a Node older than package.json's engines with one line instead of crashing on import. */
import { readFileSync } from 'node:fs';
import { expect, it } from '@jest/globals';
import { MIN_NODE, unsupportedNodeMessage } from '../../../src/cli/supported-node.js';

it('refuses Node 20 and 22.18 with what to install, and accepts 22.19, 23 and 24', () => {
  expect(unsupportedNodeMessage('v20.20.2')).toMatch(/needs Node\.js 22\.19 or newer \(this is v20\.20\.2\).*Node 24/);
  expect(unsupportedNodeMessage('v22.18.0')).toBeDefined();
  for (const ok of ['v22.19.0', 'v23.0.0', 'v24.21.0']) expect(unsupportedNodeMessage(ok)).toBeUndefined();
});

it('checks the same minimum as package.json engines', () => {
  const engines = JSON.parse(readFileSync('package.json', 'utf8')).engines.node as string;
  expect(engines).toBe(`>=${MIN_NODE.join('.')}`);
});
