#!/usr/bin/env node
// CI check of deploy/: renders every overlay, example and optional piece with `kubectl kustomize`
// and validates every object against the Kubernetes and prometheus-operator schemas, unknown fields
// rejected (scripts/manifest-schemas.mjs). With KUBECTL_COMPAT naming an older kubectl (CI passes
// Debian's 1.20, whose kustomize is v2.0.3), each directory must render the same objects with it
// (ConfigMap name hashes aside: each kustomize version hashes differently). Also type-checks the
// Slack app manifests (deploy/slack-app-manifest*.yaml) against @slack/web-api's Manifest type.
//
//   node scripts/check-manifests.mjs [DIR...]    (default: every directory named above)
//
// Your own overlay can be checked the same way: node scripts/check-manifests.mjs deploy/overlays/prod
// Exit status 0 when all pass, 1 with one line per problem otherwise.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml, parseAllDocuments } from 'yaml';
import { describeObject, schemaProblems, typeProblems } from './manifest-schemas.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const KUBECTL = process.env.KUBECTL ?? 'kubectl';
const COMPAT = process.env.KUBECTL_COMPAT;
const SLACK_MANIFESTS = ['deploy/slack-app-manifest.yaml', 'deploy/slack-app-manifest-socket-mode.yaml'];

const subdirs = (dir) =>
  readdirSync(path.join(repo, dir), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => `${dir}/${d.name}`)
    .sort();

function render(kubectl, dir) {
  const run = spawnSync(kubectl, ['kustomize', dir], { cwd: repo, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (run.error) throw new Error(`cannot run ${kubectl}: ${run.error.message}`);
  if (run.status !== 0)
    throw new Error(`${kubectl} kustomize ${dir} failed: ${run.stderr.trim().split('\n').slice(-2).join(' | ')}`);
  return parseAllDocuments(run.stdout)
    .map((d) => d.toJS())
    .filter((o) => o !== null && o !== undefined);
}

/** Empty labels / annotations maps (kustomize v2.0.3 writes them on a replaced ConfigMap) say nothing. */
function withoutEmptyMetadata(o) {
  const metadata = { ...o.metadata };
  for (const k of ['labels', 'annotations'])
    if (metadata[k] && Object.keys(metadata[k]).length === 0) delete metadata[k];
  return { ...o, metadata };
}

/** Objects as sorted canonical JSON, with generated ConfigMap names (NAME-0123456789) reduced to NAME-HASH. */
function canonical(objects, otherConfigMapNames) {
  const sortKeys = (v) =>
    Array.isArray(v)
      ? v.map(sortKeys)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sortKeys(v[k])]),
          )
        : v;
  let text = JSON.stringify(
    objects
      .map(withoutEmptyMetadata)
      .map(sortKeys)
      .map((o) => JSON.stringify(o)),
  );
  for (const o of objects) {
    const name = o.kind === 'ConfigMap' ? o.metadata.name : null;
    if (name && !otherConfigMapNames.has(name) && /-[a-z0-9]{10}$/.test(name))
      text = text.replaceAll(name, `${name.slice(0, -10)}HASH`);
  }
  return JSON.parse(text).sort();
}

function compatProblems(dir, objects) {
  const older = render(COMPAT, dir);
  const names = (objs) => new Set(objs.filter((o) => o.kind === 'ConfigMap').map((o) => o.metadata.name));
  const a = canonical(objects, names(older));
  const b = canonical(older, names(objects));
  const onlyNew = a.filter((x) => !b.includes(x)).map((x) => describeObject(JSON.parse(x)));
  const onlyOld = b.filter((x) => !a.includes(x)).map((x) => describeObject(JSON.parse(x)));
  if (onlyNew.length === 0 && onlyOld.length === 0) return [];
  return [
    {
      object: '(render)',
      path: '',
      message: `${COMPAT} renders differently: ${[...onlyNew.map((o) => `${o} (${KUBECTL})`), ...onlyOld.map((o) => `${o} (${COMPAT})`)].join(', ')}`,
    },
  ];
}

function slackProblems() {
  return typeProblems(
    SLACK_MANIFESTS.map((file) => ({
      label: file,
      module: '@slack/web-api',
      type: "Known<M.AppsManifestCreateArguments['manifest']>",
      value: parseYaml(readFileSync(path.join(repo, file), 'utf8')),
    })),
  );
}

async function main() {
  const dirs =
    process.argv.length > 2
      ? process.argv.slice(2)
      : ['deploy/overlays', 'deploy/examples', 'deploy/optional'].flatMap(subdirs);
  let failed = 0;
  const report = (where, problems) => {
    for (const p of problems)
      process.stderr.write(`check-manifests: ${where}: ${p.object}${p.path ? ` ${p.path}` : ''}: ${p.message}\n`);
    failed += problems.length;
  };
  for (const dir of dirs) {
    let objects;
    try {
      objects = render(KUBECTL, dir);
    } catch (error) {
      report(dir, [{ object: '(render)', path: '', message: error.message }]);
      continue;
    }
    const problems = await schemaProblems(objects);
    if (COMPAT) problems.push(...compatProblems(dir, objects));
    report(dir, problems);
    if (problems.length === 0)
      process.stdout.write(
        `check-manifests: ${dir}: ${objects.length} objects valid${COMPAT ? ', same with kubectl-compat' : ''}\n`,
      );
  }
  const slack = slackProblems();
  report('slack app manifests', slack);
  if (slack.length === 0)
    process.stdout.write(`check-manifests: ${SLACK_MANIFESTS.join(', ')}: match @slack/web-api's Manifest type\n`);
  if (failed > 0) {
    process.stderr.write(`check-manifests: ${failed} problem(s)\n`);
    process.exit(1);
  }
}

main().catch((error) => {
  process.stderr.write(`check-manifests: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
