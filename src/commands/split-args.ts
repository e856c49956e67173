/**
 * The one argument splitter of the bot's commands: the words after the subcommand become positionals
 * and the `-n NAMESPACE` value, `-A` and `--kind llmisvc|isvc` (also `--namespace`, `--namespace=NS`, `-nNS`, and the dashes Slack
 * clients turn `--` into). An unknown option or a `-n` without a value is a problem to show.
 */
import type { TargetKind } from '../core/target-ref.js';

export interface SplitArgs {
  positionals: string[];
  namespace?: string;
  /** `--cluster NAME` (multi-cluster bots). */
  cluster?: string;
  /** `--kind llmisvc|isvc`: which kind a name means when both exist. */
  kind?: TargetKind;
  /** `-A` / `--all-namespaces` (as kubectl): every namespace the bot may read. */
  allNamespaces?: boolean;
  problem?: string;
}

const NAMESPACE_FLAG = /^(?:-n|--namespace|[–—]n|[–—]namespace)$/;
const NAMESPACE_FLAG_INLINE = /^(?:--namespace=|-n=?)(.+)$/;
const CLUSTER_FLAG = /^(?:--|[–—])cluster$/;
const ALL_NAMESPACES_FLAG = /^(?:-A|(?:--|[–—])all-namespaces)$/;
const KIND_FLAG = /^(?:--|[–—])kind$/;
const KIND_FLAG_INLINE = /^(?:--|[–—])kind=(.+)$/;
const KINDS: readonly TargetKind[] = ['isvc', 'llmisvc'];
const CLUSTER_FLAG_INLINE = /^(?:--|[–—])cluster=(.+)$/;

export function splitArgs(words: readonly string[]): SplitArgs {
  const positionals: string[] = [];
  let namespace: string | undefined;
  let cluster: string | undefined;
  let kind: TargetKind | undefined;
  let allNamespaces = false;
  for (let i = 0; i < words.length; i += 1) {
    const w = words[i]!;
    if (ALL_NAMESPACES_FLAG.test(w)) {
      allNamespaces = true;
      continue;
    }
    const kindWord = KIND_FLAG.test(w) ? words[i + 1] : KIND_FLAG_INLINE.exec(w)?.[1];
    if (KIND_FLAG.test(w) || KIND_FLAG_INLINE.test(w)) {
      const k = KINDS.find((x) => x === kindWord?.toLowerCase());
      if (!k)
        return {
          positionals,
          problem: `${w.split('=')[0]} takes llmisvc or isvc (got "${(kindWord ?? '').slice(0, 20)}").`,
        };
      kind = k;
      if (KIND_FLAG.test(w)) i += 1;
      continue;
    }
    const inline = NAMESPACE_FLAG_INLINE.exec(w);
    const clusterInline = CLUSTER_FLAG_INLINE.exec(w);
    if (CLUSTER_FLAG.test(w)) {
      const next = words[i + 1];
      if (next === undefined) return { positionals, problem: `${w} needs a cluster name after it.` };
      cluster = next;
      i += 1;
    } else if (clusterInline) cluster = clusterInline[1];
    else if (NAMESPACE_FLAG.test(w)) {
      const next = words[i + 1];
      if (next === undefined) return { positionals, problem: `${w} needs a namespace after it.` };
      namespace = next;
      i += 1;
    } else if (inline && w.startsWith('-')) namespace = inline[1];
    else if (w.startsWith('-') || /^[–—]/.test(w))
      return { positionals, problem: `Unknown option "${w.slice(0, 40)}".` };
    else positionals.push(w);
  }
  return {
    positionals,
    ...(namespace !== undefined ? { namespace } : {}),
    ...(cluster !== undefined ? { cluster } : {}),
    ...(kind !== undefined ? { kind } : {}),
    ...(allNamespaces ? { allNamespaces } : {}),
  };
}

/** A command's text without its `--cluster NAME` (what a cluster's agent runs). */
export function withoutClusterFlag(text: string): string {
  return text
    .replace(/(^|\s)(?:--|[–—])cluster(?:=\S+|\s+\S+)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The words of a command's text; leading mentions of an app mention (`<@U0BOT>`) dropped. */
export function commandWords(text: string): string[] {
  return stripMentions(text).split(/\s+/).filter(Boolean);
}

/** Drops leading mentions such as `<@U0BOT>` from an app mention's text. */
export function stripMentions(text: string): string {
  return text.replace(/^(\s*<@[A-Z0-9]+(\|[^>]*)?>\s*)+/i, '').trim();
}
