/**
 * Parses the text of `/isvc …` (or of an app mention, the mention stripped): `diagnose NAME [-n NS]`
 * (also `NS/NAME`), `status [-n NS]`, `rollout NAME [-n NS] [promote|rollback|90/10]`, `help`. Names are checked as DNS-1123 labels and namespaces
 * against the configured ones; anything wrong becomes `invalid` with a specific problem to show.
 */
import { namespaceAllowed, type AppConfig } from '../config.js';
import type { TargetRef } from '../core/target-ref.js';
import { DNS1123_LABEL } from '../core/names.js';
import { parseRolloutOp, type RolloutOp } from '../remediation/rollout-op.js';

export type ParsedCommand =
  | { kind: 'diagnose'; target: TargetRef }
  | { kind: 'status'; namespace: string }
  | { kind: 'help' }
  | { kind: 'rollout'; target: TargetRef; op: RolloutOp | null }
  | { kind: 'invalid'; problem: string };

/** `-n`, `--namespace`, and the dashes Slack clients turn `--` into. */
const NAMESPACE_FLAG = /^(?:-n|--namespace|[–—]n|[–—]namespace)$/;
const NAMESPACE_FLAG_INLINE = /^(?:--namespace=|-n=?)(.+)$/;

/** Drops leading mentions such as `<@U0BOT>` from an app mention's text. */
export function stripMentions(text: string): string {
  return text.replace(/^(\s*<@[A-Z0-9]+(\|[^>]*)?>\s*)+/i, '').trim();
}

function checkName(what: string, value: string): string | null {
  if (value.length > 63 || !DNS1123_LABEL.test(value)) {
    return `"${value.slice(0, 80)}" is not a valid ${what}: use lower-case letters, digits and "-", starting and ending with a letter or digit, at most 63 characters.`;
  }
  return null;
}

function defaultNamespace(config: Pick<AppConfig, 'namespaces'>): string {
  return config.namespaces === null || config.namespaces.includes('default') ? 'default' : config.namespaces[0]!;
}

function checkNamespace(config: Pick<AppConfig, 'namespaces'>, ns: string): string | null {
  const bad = checkName('namespace', ns);
  if (bad) return bad;
  if (!namespaceAllowed(config, ns)) return `Namespace "${ns}" is not one this bot may read (allowed: ${config.namespaces!.join(', ')}).`;
  return null;
}

/** Splits the words after the subcommand into positionals and the -n value. */
function splitArgs(words: string[]): { positionals: string[]; namespace?: string; problem?: string } {
  const positionals: string[] = [];
  let namespace: string | undefined;
  for (let i = 0; i < words.length; i += 1) {
    const w = words[i]!;
    const inline = NAMESPACE_FLAG_INLINE.exec(w);
    if (NAMESPACE_FLAG.test(w)) {
      const next = words[i + 1];
      if (next === undefined) return { positionals, problem: `${w} needs a namespace after it.` };
      namespace = next;
      i += 1;
    } else if (inline && w.startsWith('-')) namespace = inline[1];
    else if (w.startsWith('-') || /^[–—]/.test(w)) return { positionals, problem: `Unknown option "${w.slice(0, 40)}".` };
    else positionals.push(w);
  }
  return { positionals, ...(namespace !== undefined ? { namespace } : {}) };
}

export function parseIsvcCommand(text: string, config: Pick<AppConfig, 'namespaces'>): ParsedCommand {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const sub = (words[0] ?? 'help').toLowerCase();
  const args = splitArgs(words.slice(1));
  if (sub === 'help' || sub === '-h' || sub === '--help') return { kind: 'help' };
  if (sub !== 'diagnose' && sub !== 'status' && sub !== 'rollout') return { kind: 'invalid', problem: `Unknown subcommand "${sub.slice(0, 40)}".` };
  if (args.problem) return { kind: 'invalid', problem: args.problem };
  if (sub === 'status') {
    if (args.positionals.length > 0) return { kind: 'invalid', problem: `status takes no name (got "${args.positionals[0]!.slice(0, 40)}"); use -n NAMESPACE.` };
    const ns = args.namespace ?? defaultNamespace(config);
    const bad = checkNamespace(config, ns);
    return bad ? { kind: 'invalid', problem: bad } : { kind: 'status', namespace: ns };
  }
  let op: RolloutOp | null = null;
  if (sub === 'rollout' && args.positionals.length === 2) {
    const parsedOp = parseRolloutOp(args.positionals.pop()!);
    if (typeof parsedOp === 'string') return { kind: 'invalid', problem: parsedOp };
    op = parsedOp;
  }
  if (args.positionals.length !== 1) {
    return { kind: 'invalid', problem: args.positionals.length === 0 ? `${sub} needs the name of an InferenceService.` : `${sub} takes one InferenceService name.` };
  }
  let name = args.positionals[0]!;
  let ns = args.namespace;
  if (name.includes('/')) {
    const [n, rest, ...more] = name.split('/');
    if (more.length > 0 || !n || !rest) return { kind: 'invalid', problem: `"${name.slice(0, 80)}" is not NAME or NAMESPACE/NAME.` };
    if (ns !== undefined && ns !== n) return { kind: 'invalid', problem: `Two namespaces given: "${n}" in ${name} and "${ns}" with -n.` };
    ns = n;
    name = rest;
  }
  const badName = checkName('InferenceService name', name);
  if (badName) return { kind: 'invalid', problem: badName };
  const namespace = ns ?? defaultNamespace(config);
  const badNs = checkNamespace(config, namespace);
  if (badNs) return { kind: 'invalid', problem: badNs };
  if (sub === 'rollout') return { kind: 'rollout', target: { namespace, name }, op };
  return { kind: 'diagnose', target: { namespace, name } };
}
