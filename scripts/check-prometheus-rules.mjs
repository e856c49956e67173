#!/usr/bin/env node
// CI check of the alerts in deploy/optional/monitoring: renders the directory (kubectl kustomize),
// takes the PrometheusRule's spec (a Prometheus rule file: `groups:`), and runs
// `promtool check rules` on it, then `promtool test rules` with test/promtool/isvc-doctor-alerts.test.yaml
// (series in, alerts out: each alert fires when it should and stays quiet otherwise).
// promtool: $PROMTOOL, or promtool on PATH (Debian's `prometheus` package has it; .ci/run provides it).
// Exit status 0 when both pass.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments, stringify } from 'yaml';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const KUBECTL = process.env.KUBECTL ?? 'kubectl';
const PROMTOOL = process.env.PROMTOOL ?? 'promtool';
const MONITORING = 'deploy/optional/monitoring';
const RULES_FILE = 'isvc-doctor-rules.yaml';
const TESTS = 'test/promtool/isvc-doctor-alerts.test.yaml';

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, ...options });
  if (result.error) throw new Error(`cannot run ${command}: ${result.error.message}`);
  return result;
}

function ruleFile() {
  const rendered = run(KUBECTL, ['kustomize', MONITORING], { cwd: repo });
  if (rendered.status !== 0) throw new Error(`${KUBECTL} kustomize ${MONITORING} failed: ${rendered.stderr.trim()}`);
  const rules = parseAllDocuments(rendered.stdout)
    .map((d) => d.toJS())
    .filter((o) => o?.kind === 'PrometheusRule');
  if (rules.length !== 1) throw new Error(`expected one PrometheusRule in ${MONITORING}, found ${rules.length}`);
  return { name: rules[0].metadata.name, text: stringify({ groups: rules[0].spec.groups }) };
}

function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'isvc-doctor-rules-'));
  try {
    const { name, text } = ruleFile();
    writeFileSync(path.join(dir, RULES_FILE), text);
    copyFileSync(path.join(repo, TESTS), path.join(dir, path.basename(TESTS)));
    for (const args of [
      ['check', 'rules', RULES_FILE],
      ['test', 'rules', path.basename(TESTS)],
    ]) {
      const result = run(PROMTOOL, args, { cwd: dir });
      const output = `${result.stdout}${result.stderr}`.trim();
      if (result.status !== 0)
        throw new Error(`promtool ${args.join(' ')} (PrometheusRule ${name}) failed:\n${output}`);
      process.stdout.write(
        `check-prometheus-rules: promtool ${args.slice(0, 2).join(' ')}: ${
          output
            .split('\n')
            .filter((l) => /SUCCESS|rules found/.test(l))
            .join('; ') || 'ok'
        }\n`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

try {
  main();
} catch (error) {
  process.stderr.write(`check-prometheus-rules: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
