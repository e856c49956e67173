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
};
