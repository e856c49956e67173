#!/usr/bin/env node
// Runs before `npm test`: installs the npm packages when they are missing and says exactly which
// system programs the tests need when they are not on PATH (the tests start their own Redis, drive
// a real kubectl against the cluster simulator and Debian's chromium against the playground).
import { execSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { node24BinDir } from './node-24.mjs';

// Node ≥ 22.19 runs the tests (Node 24 LTS in CI and the image): fetched here, once, when the node on
// PATH is older, so the jest step (through scripts/node-24.mjs) finds it ready.
node24BinDir();

if (!existsSync('node_modules/.package-lock.json')) {
  console.error('isvc-doctor: node_modules is missing, running npm ci');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
}

const missing = [];
const has = (cmd, args) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
if (!process.env.REDIS_URL && !has('redis-server', ['--version'])) {
  missing.push('redis-server (Debian: apt-get install -y redis-server), or set REDIS_URL to a Redis the tests may use');
}
if (!has('kubectl', ['version', '--client'])) {
  missing.push('kubectl 1.20 or newer (Debian: apt-get install -y kubernetes-client)');
}
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  missing.push(
    `chromium at ${chromium}, for the playground's browser tests (Debian: apt-get install -y chromium; or set CHROMIUM_PATH)`,
  );
}
if (missing.length > 0) {
  console.error('isvc-doctor: the tests need these programs, which are not on PATH:');
  for (const m of missing) console.error(`  - ${m}`);
  console.error('`bash .ci/run` installs them on a Debian machine (as root).');
  process.exit(1);
}
