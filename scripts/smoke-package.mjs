#!/usr/bin/env node
// Package smoke test: what a user gets from the npm package, without a registry.
// `npm pack` (its prepack builds dist/ and ships package-lock.json as npm-shrinkwrap.json, so an
// install gets the versions CI tested); the tarball must hold only what runs (dist/src, dist/playbooks,
// dist/handlers, the playground's page and scenarios, package.json, README, the shrinkwrap: no tests,
// benches, fixtures or TypeScript sources) and all of it. Then, from a clean folder: `npx --package=./isvc-doctor-X.tgz isvc-doctor --version` and
// `… diagnose` on a scenario; `npm install` of the tarball into a prefix (no dev dependency installed)
// and, with its node_modules/.bin on PATH, `isvc-doctor playground` serves its page and scenarios, the
// real kubectl runs the plugin (`kubectl isvc-doctor
// diagnose`, `status`), bash completes through `isvc-doctor completion bash`, and zsh (when on PATH;
// .ci/run installs it) through `isvc-doctor completion zsh` in an interactive zsh driven by zpty.
// Last, the krew archive and deploy/krew/isvc-doctor.yaml filled in (scripts/krew-archive.mjs),
// installed as krew installs it (the manifest's files and bin, linked as kubectl-isvc_doctor), and
// run through kubectl. Exit status 0 when all pass.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { buildKrewArchive, krewManifest } from './krew-archive.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SCENARIO = path.join(repo, 'test/scenarios/storage-uri-not-found');
const RUNTIME_DIRS = ['dist/src/', 'dist/playbooks/', 'dist/handlers/', 'src/playground/scenarios/'];
/** Runtime files outside dist/: the playground page's markup and styles. */
const RUNTIME_FILES = /^src\/playground\/page\/[^/]+\.(html|css)$/;
const started = Date.now();
const cleanups = [];

let lastLog = started;
const log = (m) => {
  process.stdout.write(`package: ${m} [${((Date.now() - lastLog) / 1000).toFixed(1)} s]\n`);
  lastLog = Date.now();
};
const tail = (text, n = 5) => text.trim().split('\n').slice(-n).join(' | ');
function sh(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 180_000, ...options });
  if (r.error) throw new Error(`${cmd} ${args.join(' ')}: ${r.error.message}`);
  return r;
}
function expectStatus(r, status, what) {
  if (r.status !== status)
    throw new Error(`${what}: exit ${r.status} (expected ${status}): ${tail(`${r.stderr}${r.stdout}`)}`);
  return r;
}
function temp(prefix) {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** npm pack into a folder of its own; the tarball's path and its file list. */
function pack() {
  const out = temp('isvc-doctor-pack-');
  const r = expectStatus(sh('npm', ['pack', '--json', '--pack-destination', out], { cwd: repo }), 0, 'npm pack');
  const [info] = JSON.parse(r.stdout.slice(r.stdout.indexOf('[')));
  if (existsSync(path.join(repo, 'npm-shrinkwrap.json')))
    throw new Error('npm pack left npm-shrinkwrap.json behind (postpack)');
  return {
    tgz: path.join(out, info.filename),
    files: info.files.map((f) => f.path),
    size: info.size,
    version: info.version,
  };
}

function checkContents(files, pkg) {
  const allowed = (f) =>
    RUNTIME_DIRS.some((d) => f.startsWith(d)) ||
    RUNTIME_FILES.test(f) ||
    ['package.json', 'README.md', 'npm-shrinkwrap.json'].includes(f);
  const stray = files.filter((f) => !allowed(f) || f.endsWith('.ts') || /(^|\/)(test|bench|fixtures)\//.test(f));
  if (stray.length > 0) throw new Error(`the tarball holds what does not run: ${stray.slice(0, 8).join(', ')}`);
  const page = readdirSync(path.join(repo, 'src/playground/page'))
    .map((f) => `src/playground/page/${f}`)
    .filter((f) => RUNTIME_FILES.test(f));
  const runtime = [
    ...RUNTIME_DIRS.flatMap((d) => listFiles(path.join(repo, d)).map((f) => path.relative(repo, f))),
    ...page,
  ];
  const missing = runtime.filter((f) => !files.includes(f));
  if (missing.length > 0) throw new Error(`the tarball lacks runtime files: ${missing.slice(0, 8).join(', ')}`);
  for (const [name, file] of Object.entries(pkg.bin))
    if (!files.includes(file)) throw new Error(`bin ${name} (${file}) is not in the tarball`);
  if (!files.includes('npm-shrinkwrap.json')) throw new Error('npm-shrinkwrap.json is not in the tarball');
}

function listFiles(dir) {
  return readdirSync(dir).flatMap((e) => {
    const p = path.join(dir, e);
    return statSync(p).isDirectory() ? listFiles(p) : [p];
  });
}

/** npx's cache folders created while `fn` runs are removed after it (each tarball path is a new entry). */
function withNpxCacheCleaned(fn) {
  const npx = path.join(process.env.npm_config_cache ?? path.join(homedir(), '.npm'), '_npx');
  const before = new Set(existsSync(npx) ? readdirSync(npx) : []);
  try {
    return fn();
  } finally {
    for (const e of existsSync(npx) ? readdirSync(npx) : [])
      if (!before.has(e)) rmSync(path.join(npx, e), { recursive: true, force: true });
  }
}

function npxFromCleanFolder(tgz, version) {
  const clean = temp('isvc-doctor-npx-');
  const npx = (...args) => sh('npx', ['--yes', `--package=${tgz}`, 'isvc-doctor', ...args], { cwd: clean });
  withNpxCacheCleaned(() => {
    const v = expectStatus(npx('--version'), 0, 'npx … isvc-doctor --version');
    if (v.stdout.trim() !== `isvc-doctor ${version}`) throw new Error(`--version printed "${v.stdout.trim()}"`);
    const d = expectStatus(
      npx('diagnose', 'sklearn-iris', '--snapshot', SCENARIO, '-o', 'json'),
      1,
      'npx … isvc-doctor diagnose',
    );
    if (JSON.parse(d.stdout).rootCause !== 'STORAGE_URI_NOT_FOUND')
      throw new Error(`npx … diagnose: root cause ${JSON.parse(d.stdout).rootCause}`);
  });
  if (readdirSync(clean).length > 0)
    throw new Error(`npx wrote into the clean folder: ${readdirSync(clean).join(', ')}`);
  log(`npx --package=${path.basename(tgz)} isvc-doctor --version / diagnose (clean folder): ok`);
}

function installIntoPrefix(tgz) {
  const prefix = temp('isvc-doctor-install-');
  expectStatus(
    sh('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', tgz]),
    0,
    'npm install of the tarball',
  );
  const lock = JSON.parse(readFileSync(path.join(repo, 'package-lock.json'), 'utf8'));
  const dev = Object.entries(lock.packages ?? {})
    .filter(([p, meta]) => p.startsWith('node_modules/') && meta.dev === true)
    .map(([p]) => path.basename(p));
  const installed = readdirSync(path.join(prefix, 'node_modules'));
  for (const d of ['typescript', 'jest', '@swc', 'kubernetes-models'])
    if (installed.includes(d)) throw new Error(`a dev dependency was installed: ${d}`);
  const bins = readdirSync(path.join(prefix, 'node_modules/.bin')).filter((b) => b.includes('isvc'));
  log(
    `npm install of the tarball: ${installed.length} top-level packages (none of the ${dev.length} dev-only ones), bins ${bins.join(', ')}`,
  );
  return path.join(prefix, 'node_modules/.bin');
}

/** `isvc-doctor playground --port 0` from the installed package: its page, its script and its bundled scenarios answer; SIGTERM ends it. */
async function playground(env) {
  const child = spawn('isvc-doctor', ['playground', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  try {
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`isvc-doctor playground did not start within 60 s: ${tail(err)}`)),
        60_000,
      );
      child.stdout.on('data', (d) => {
        out += d;
        const m = /playground: (http:\/\/\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`isvc-doctor playground exited (${code}): ${tail(err)}`));
      });
    });
    const page = await fetch(`${url}/`);
    const script = await fetch(`${url}/page/main.js`);
    const state = await (await fetch(`${url}/ui/state`)).json();
    if (page.status !== 200 || !(await page.text()).includes('<html') || script.status !== 200)
      throw new Error(`the playground's page answered ${page.status}, its script ${script.status}`);
    const services = JSON.stringify(state);
    for (const name of readdirSync(path.join(repo, 'src/playground/scenarios')).filter((d) => !d.includes('.'))) {
      if (!existsSync(path.join(repo, 'src/playground/scenarios', name, 'objects.yaml'))) continue;
      const target = parseYaml(readFileSync(path.join(repo, 'src/playground/scenarios', name, 'expect.yaml'), 'utf8'))
        ?.target?.name;
      if (target && !services.includes(target))
        throw new Error(`the playground's state lacks the bundled scenario ${name} (${target})`);
    }
    log(`isvc-doctor playground (installed): page, script and the bundled scenarios served`);
  } finally {
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

function kubectlPlugin(env) {
  const d = expectStatus(
    sh('kubectl', ['isvc-doctor', 'diagnose', 'sklearn-iris', '--snapshot', SCENARIO], { env }),
    1,
    'kubectl isvc-doctor diagnose',
  );
  if (!d.stdout.split('\n')[0].includes('root cause STORAGE_URI_NOT_FOUND'))
    throw new Error(`kubectl isvc-doctor diagnose printed: ${tail(d.stdout)}`);
  const s = expectStatus(
    sh('kubectl', ['isvc-doctor', 'status', '--snapshot', SCENARIO], { env }),
    1,
    'kubectl isvc-doctor status',
  );
  if (!/^sklearn-iris\s+False\s+STORAGE_URI_NOT_FOUND/m.test(s.stdout))
    throw new Error(`kubectl isvc-doctor status printed: ${tail(s.stdout)}`);
  const h = expectStatus(
    sh('kubectl', ['isvc-doctor', 'help', 'status'], { env }),
    0,
    'kubectl isvc-doctor help status',
  );
  if (!h.stdout.includes('usage: kubectl isvc-doctor status'))
    throw new Error('the plugin\'s help does not say "kubectl isvc-doctor"');
  log('kubectl isvc-doctor diagnose / status / help (the installed kubectl-isvc_doctor): ok');
}

function bashCompletion(env) {
  const script = `source <(isvc-doctor completion bash)
COMP_WORDS=(isvc-doctor diagnose --snapshot '${SCENARIO}' ''); COMP_CWORD=4; _isvc_doctor_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = expectStatus(sh('bash', ['-c', script], { env }), 0, 'bash completion');
  if (r.stdout.trim() !== 'sklearn-iris') throw new Error(`bash completed "${r.stdout.trim()}", not sklearn-iris`);
  log('bash: source <(isvc-doctor completion bash); TAB after `diagnose --snapshot DIR` offers sklearn-iris');
}

/** An interactive zsh under zpty: TAB after `line`, until the command line shows `expected` (20 s deadline). */
function zshCompletion(env) {
  if (sh('zsh', ['--version'], { env }).status !== 0)
    return log('zsh completion: skipped (no zsh on PATH; .ci/run installs it)');
  const driver = path.join(temp('isvc-doctor-zsh-'), 'tab.zsh');
  writeFileSync(
    driver,
    `zmodload zsh/zpty zsh/datetime
zpty z 'zsh -f -i'
zpty -w z 'stty columns 250; PS1="> "; autoload -Uz compinit; compinit -u -D; source <(isvc-doctor completion zsh); print "RE""ADY"'
local all out deadline=$(( EPOCHREALTIME + 20 ))
# type only once the completion is loaded (a cold first start of isvc-doctor can take seconds)
while (( EPOCHREALTIME < deadline )) && [[ $all != *READY* ]]; do
  if zpty -r -t z out; then all+=$out; else sleep 0.05; fi
done
all=''
zpty -w -n z "$1"$'\\t'
while (( EPOCHREALTIME < deadline )); do
  if zpty -r -t z out; then all+=$out; [[ $all == *"$2"* ]] && { zpty -d z; print ok; exit 0 }; else sleep 0.05; fi
done
zpty -d z; print -r -- "\${all//$'\\e'/^[}"; exit 1
`,
  );
  const scenario = path.relative(repo, SCENARIO);
  for (const [line, expected] of [
    ['isvc-doctor sta', 'isvc-doctor status'],
    [`isvc-doctor diagnose --snapshot ${scenario} skl`, `${scenario} sklearn-iris`],
  ]) {
    const r = sh('zsh', ['-f', driver, line, expected], { env, cwd: repo, timeout: 30_000 });
    if (r.status !== 0) throw new Error(`zsh did not complete "${line}" to "${expected}": ${tail(r.stdout, 3)}`);
  }
  log('zsh: source <(isvc-doctor completion zsh); TAB completes a command and an InferenceService name');
}

/** The krew archive and filled manifest, installed as krew does (files, then bin linked as kubectl-isvc_doctor), run by kubectl. */
function krewInstall(tgz, version) {
  const out = temp('isvc-doctor-krew-');
  const archive = buildKrewArchive(tgz, out);
  const sha256 = createHash('sha256').update(readFileSync(archive)).digest('hex');
  const manifest = parseYaml(
    krewManifest({ version, uri: `file://${archive}`, sha256, homepage: 'https://example.com/isvc-doctor' }),
  );
  const [platform] = manifest.spec.platforms;
  const problems = [
    manifest.apiVersion === 'krew.googlecontainertools.github.com/v1alpha2' && manifest.kind === 'Plugin'
      ? null
      : 'apiVersion/kind',
    manifest.metadata.name === 'isvc-doctor' ? null : 'metadata.name',
    manifest.spec.version === `v${version}` ? null : 'spec.version',
    platform.sha256 === sha256 && platform.uri.endsWith(path.basename(archive)) ? null : 'sha256/uri',
    /\$\{/.test(JSON.stringify(manifest)) ? 'a placeholder left' : null,
  ].filter(Boolean);
  if (problems.length > 0) throw new Error(`deploy/krew/isvc-doctor.yaml filled in is wrong: ${problems.join(', ')}`);
  const extracted = path.join(out, 'extracted');
  const installed = path.join(out, 'installed');
  mkdirSync(extracted);
  mkdirSync(installed);
  expectStatus(sh('tar', ['-xzf', archive, '-C', extracted]), 0, 'extracting the krew archive');
  for (const { from, to } of platform.files) {
    if (!from.endsWith('/*')) throw new Error(`unexpected files.from ${from}`);
    const dir = path.join(extracted, from.slice(0, -2));
    for (const e of readdirSync(dir))
      cpSync(path.join(dir, e), path.join(installed, to, e), { recursive: true, verbatimSymlinks: true });
  }
  const krewBin = temp('isvc-doctor-krew-bin-');
  symlinkSync(path.join(installed, platform.bin), path.join(krewBin, 'kubectl-isvc_doctor'));
  const env = { PATH: `${krewBin}${path.delimiter}${process.env.PATH}`, HOME: temp('isvc-doctor-home-') };
  const v = expectStatus(
    sh('kubectl', ['isvc-doctor', '--version'], { env }),
    0,
    'kubectl isvc-doctor --version (krew install)',
  );
  if (v.stdout.trim() !== `isvc-doctor ${version}`)
    throw new Error(`kubectl isvc-doctor --version printed "${v.stdout.trim()}"`);
  expectStatus(
    sh('kubectl', ['isvc-doctor', 'diagnose', 'sklearn-iris', '--snapshot', SCENARIO], { env }),
    1,
    'kubectl isvc-doctor diagnose (krew install)',
  );
  log(
    `krew: ${path.basename(archive)} (${(statSync(archive).size / 1024 / 1024).toFixed(1)} MB), the filled manifest's files and bin installed as krew does; kubectl isvc-doctor runs from it`,
  );
}

async function main() {
  const pkg = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8'));
  const { tgz, files, size, version } = pack();
  checkContents(files, pkg);
  log(
    `npm pack: ${path.basename(tgz)}, ${files.length} files, ${(size / 1024).toFixed(0)} kB: dist/src, dist/playbooks, dist/handlers, package.json, README.md, npm-shrinkwrap.json; no tests, benches or fixtures`,
  );
  npxFromCleanFolder(tgz, version);
  const bin = installIntoPrefix(tgz);
  const env = { PATH: `${bin}${path.delimiter}${process.env.PATH}`, HOME: temp('isvc-doctor-home-') };
  await playground(env);
  kubectlPlugin(env);
  bashCompletion(env);
  zshCompletion(env);
  krewInstall(tgz, version);
}

try {
  await main();
  log(`passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (error) {
  process.stderr.write(`package: FAILED: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  for (const c of cleanups.reverse()) c();
}
