#!/usr/bin/env node
// Builds the krew archive of the kubectl plugin and prints deploy/krew/isvc-doctor.yaml filled in.
//   node scripts/krew-archive.mjs --uri URL [--homepage URL] [--tgz isvc-doctor-X.tgz] [--out DIR]
// The archive is the npm package (`npm pack`, or --tgz) with its production dependencies installed
// as its npm-shrinkwrap.json pins them: package/ with dist/, node_modules/ and package.json, so
// krew's `bin` (dist/src/cli/isvc-doctor.js) runs with `node` alone. The manifest goes to stdout,
// the archive's path and sha256 to stderr.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0)
    throw new Error(
      `${cmd} ${args.join(' ')}: ${(r.stderr || r.stdout || String(r.error)).trim().split('\n').slice(-3).join(' | ')}`,
    );
  return r.stdout;
}

/** The archive for `tgz` in `out`; returns its path. */
export function buildKrewArchive(tgz, out) {
  const work = mkdtempSync(path.join(tmpdir(), 'isvc-doctor-krew-'));
  try {
    run('tar', ['-xzf', tgz, '-C', work]);
    run('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], path.join(work, 'package'));
    const { version } = JSON.parse(readFileSync(path.join(work, 'package/package.json'), 'utf8'));
    const archive = path.join(out, `isvc-doctor-kubectl-${version}.tar.gz`);
    run('tar', ['-czf', archive, '-C', work, 'package']);
    return archive;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function krewManifest({ version, uri, sha256, homepage }) {
  const vars = { VERSION: version, URI: uri, SHA256: sha256, HOMEPAGE: homepage };
  return readFileSync(path.join(repo, 'deploy/krew/isvc-doctor.yaml'), 'utf8')
    .split('\n')
    .filter((l) => !l.startsWith('#'))
    .join('\n')
    .replace(/\$\{(\w+)\}/g, (m, k) => vars[k] ?? m);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      uri: { type: 'string' },
      homepage: { type: 'string' },
      tgz: { type: 'string' },
      out: { type: 'string' },
    },
  });
  if (!values.uri) {
    process.stderr.write(
      'usage: node scripts/krew-archive.mjs --uri URL [--homepage URL] [--tgz isvc-doctor-X.tgz] [--out DIR]\n',
    );
    process.exit(2);
  }
  const out = path.resolve(values.out ?? '.');
  const tgz = values.tgz
    ? path.resolve(values.tgz)
    : path.join(
        out,
        JSON.parse(run('npm', ['pack', '--json', '--pack-destination', out], repo).replace(/^[^[]*/, ''))[0].filename,
      );
  const archive = buildKrewArchive(tgz, out);
  const sha256 = createHash('sha256').update(readFileSync(archive)).digest('hex');
  const { version } = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8'));
  process.stderr.write(`${archive}\nsha256 ${sha256}\n`);
  process.stdout.write(
    krewManifest({
      version,
      uri: values.uri,
      sha256,
      homepage: values.homepage ?? 'https://github.com/OWNER/isvc-doctor',
    }),
  );
}
