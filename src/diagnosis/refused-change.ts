/**
 * What an admission refusal names in the object it refused: a field of the InferenceService (an
 * annotation, a label, a spec key) that the refusal's text names, with the value it holds, and the
 * status field of the same name with the value the controller wrote there. A refusal "X cannot be
 * changed from 'A' to 'B'" where the annotation X says B and status X says A is a conflict between
 * what the user wrote and what the controller decided, not a change anyone made. When the webhook
 * that refuses belongs to the same controller that writes (KServe's validator refusing KServe's own
 * update), no spec the user writes gets through but the one the webhook accepts, and the release is
 * at fault too. The next step names the key, its value and the value to set, from the object.
 */
import type { Finding } from '../findings/types.js';
import type { InferenceServiceObject } from '../kube/schemas.js';
import { isObj } from '../core/plain-object.js';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface RefusedChange {
  /** Where the user's value lives: `annotation serving.kserve.io/deploymentMode`, `label …`. */
  where: 'annotation' | 'label';
  key: string;
  value: string;
  /** The status field of the same name and the value the controller wrote there, when it has one. */
  statusField?: string;
  statusValue?: string;
  webhook?: string;
  /** The refusing webhook is the controller's own (KServe / KFServing). */
  own: boolean;
}

/** The refused field as the InferenceService holds it, read from the refusal text of the finding's evidence. */
export function refusedChange(isvc: InferenceServiceObject, f: Finding): RefusedChange | undefined {
  const text = f.evidence
    .flatMap((e) => [e.text ?? '', ...(e.excerpt ?? [])])
    .find((t) => /denied the request/.test(t));
  if (!text) return undefined;
  const webhook = /admission webhook \\?"([^"\\]+)\\?"/.exec(text)?.[1];
  const reason = text.slice(text.indexOf('denied the request'));
  const quoted = [...reason.matchAll(/\\?['"]([^'"\\]+)\\?['"]/g)].map((m) => m[1] ?? '');
  const status = isObj(isvc.status) ? isvc.status : {};
  const meta = isvc.metadata as { annotations?: Record<string, string>; labels?: Record<string, string> };
  const own = /kserve|kfserving/i.test(webhook ?? '');
  for (const [where, map] of [
    ['annotation', meta.annotations ?? {}],
    ['label', meta.labels ?? {}],
  ] as const) {
    for (const [key, value] of Object.entries(map)) {
      const field = key.split('/').at(-1) ?? key;
      if (!field || !new RegExp(`(^|[^\\w.-])${escapeRegExp(field)}([^\\w.-]|$)`, 'i').test(reason)) continue;
      // the refusal quotes the value this key holds (the value it refuses to go to)
      if (quoted.length > 0 && !quoted.includes(value)) continue;
      const statusValue = typeof status[field] === 'string' ? (status[field] as string) : undefined;
      return {
        where,
        key,
        value,
        ...(statusValue !== undefined ? { statusField: `status.${field}`, statusValue } : {}),
        ...(webhook ? { webhook } : {}),
        own,
      };
    }
  }
  return undefined;
}

/** The next step for a refusal of that field: set the key to what the controller decided, or upgrade when the webhook is its own. */
export function refusedChangeNext(
  r: RefusedChange,
  target: { namespace: string; name: string; kind?: string },
  deleting: boolean,
): string {
  const kind = 'inferenceservice';
  const set =
    r.statusValue !== undefined && r.statusValue !== r.value
      ? `kubectl ${r.where === 'annotation' ? 'annotate' : 'label'} ${kind} ${target.name} -n ${target.namespace} ${r.key}=${r.statusValue} --overwrite (${r.statusField} holds ${r.statusValue}: the value the controller decided for ${r.key}'s ${r.value})`
      : `set ${r.where} ${r.key} on ${kind} ${target.name} -n ${target.namespace} to a value ${r.webhook ?? 'the webhook'} accepts (its message names the one it compares with)`;
  const why = `${r.webhook ?? 'The webhook'} refuses every update of ${kind} ${target.name} while ${r.where} ${r.key} is ${r.value}${r.statusValue !== undefined ? ` and ${r.statusField} is ${r.statusValue}` : ''}${deleting ? ', the controller’s own update that completes the deletion included' : ''}`;
  const upgrade = r.own
    ? `; the webhook is the controller's own (it refuses what its controller writes): upgrade KServe to a release whose webhook accepts the ${r.key} value as written`
    : '';
  return `${why}: ${set}${upgrade}`;
}
