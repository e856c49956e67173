/**
 * The outside-in reliability suite (`npm run test:reliability`): requests, fuzz, authorization,
 * faults, secrets, bad snapshots. Each test prints its figure ("forged accepted 0", ...) on a line
 * of its own. Kept apart from `npm test` because it drives whole processes at volume.
 */
import base from './jest.config.js';

export default {
  ...base,
  testMatch: ['<rootDir>/test/reliability/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: 300000,
  maxWorkers: 1,
};
