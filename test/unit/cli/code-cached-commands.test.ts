/** Which runs of the bundled bin start from the code-cached bundle: cluster commands that end, never their help. */
import { expect, it } from '@jest/globals';
import { CLI_COMMANDS } from '../../../src/cli/cli-commands.js';
import { CODE_CACHED_COMMANDS, usesCodeCache } from '../../../src/cli/code-cached-commands.js';

it('names registered commands only', () => {
  for (const name of CODE_CACHED_COMMANDS) expect(CLI_COMMANDS.map((c) => c.name)).toContain(name);
});

it('starts diagnose, status and signatures from the cache, not their help nor the long-running commands', () => {
  expect(usesCodeCache(['diagnose', 'sklearn-iris'])).toBe(true);
  expect(usesCodeCache(['status', '-n', 'default'])).toBe(true);
  expect(usesCodeCache(['diagnose', '--help'])).toBe(false);
  expect(usesCodeCache(['status', '-h'])).toBe(false);
  expect(usesCodeCache(['serve'])).toBe(false);
  expect(usesCodeCache(['simulate'])).toBe(false);
  expect(usesCodeCache([])).toBe(false);
});
