/**
 * The InferenceService a command names: `NAME` with `-n NAMESPACE`, or `NAMESPACE/NAME`; the
 * namespace defaults to `default` (or the first allowed one). Both are checked as DNS-1123 labels,
 * and the namespace against the ones the bot may read.
 */
import { namespaceAllowed, type AppConfig } from '../config.js';
import { nameError } from '../core/names.js';
import type { TargetRef } from '../core/target-ref.js';
import type { Problem } from './command.js';

type Config = Pick<AppConfig, 'namespaces'>;

export function defaultNamespace(config: Config): string {
  return config.namespaces === null || config.namespaces.includes('default') ? 'default' : config.namespaces[0]!;
}

/** Why the bot will not use this namespace, or null. */
export function namespaceProblem(config: Config, ns: string): string | null {
  const bad = nameError(ns, 'namespace');
  if (bad) return bad;
  if (!namespaceAllowed(config, ns))
    return `Namespace "${ns}" is not one this bot may read (allowed: ${config.namespaces!.join(', ')}).`;
  return null;
}

export function resolveTarget(word: string, namespaceFlag: string | undefined, config: Config): TargetRef | Problem {
  let name = word;
  let ns = namespaceFlag;
  if (name.includes('/')) {
    const [n, rest, ...more] = name.split('/');
    if (more.length > 0 || !n || !rest) return { problem: `"${name.slice(0, 80)}" is not NAME or NAMESPACE/NAME.` };
    if (ns !== undefined && ns !== n)
      return { problem: `Two namespaces given: "${n}" in ${name} and "${ns}" with -n.` };
    ns = n;
    name = rest;
  }
  const badName = nameError(name, 'InferenceService name');
  if (badName) return { problem: badName };
  const namespace = ns ?? defaultNamespace(config);
  const badNs = namespaceProblem(config, namespace);
  if (badNs) return { problem: badNs };
  return { namespace, name };
}

/** The one InferenceService name a command takes (`what`: the command's name, for the problem). */
export function oneTarget(
  what: string,
  positionals: readonly string[],
  namespaceFlag: string | undefined,
  config: Config,
): TargetRef | Problem {
  if (positionals.length !== 1)
    return {
      problem:
        positionals.length === 0
          ? `${what} needs the name of an InferenceService.`
          : `${what} takes one InferenceService name.`,
    };
  return resolveTarget(positionals[0]!, namespaceFlag, config);
}
