/** Jest in ESM mode (run with node --experimental-vm-modules), TypeScript compiled by SWC. */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } },
    ],
  },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  // a playbook's and a Slack listener's unit test sits beside it (playbooks/x.test.ts beside x.ts)
  testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/playbooks/**/*.test.ts', '<rootDir>/handlers/**/*.test.ts'],
  // the reliability suite runs on its own (npm run test:reliability, jest.reliability.config.js)
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/reliability/'],
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
  testTimeout: 30000,
  // Exit when the run is over although one handle stays open, and only for this one (the reliability
  // suite leaves none: jest.reliability.config.js turns this off). BullMQ 5.81 with ioredis 5: when a
  // worker is closed while Redis is gone (test/e2e/shutdown-redis-down.test.ts), Worker.close() waits
  // for its blocking connection's 'end' event, which an ioredis client disconnected in its reconnect
  // back-off never emits; close(true) returns that same pending close, so the worker's lock-renewal
  // timer (LockManager, every lockDuration / 4) is never cleared and keeps the process alive. Neither
  // the lock manager nor the blocking connection is public, so the test cannot close them.
  forceExit: true,
};
