/**
 * The one argument splitter of the bot's commands: the words after the subcommand become positionals
 * and the `-n NAMESPACE` value (also `--namespace`, `--namespace=NS`, `-nNS`, and the dashes Slack
 * clients turn `--` into). An unknown option or a `-n` without a value is a problem to show.
 */
export interface SplitArgs {
  positionals: string[];
  namespace?: string;
  /** `--cluster NAME` (multi-cluster bots). */
  cluster?: string;
  problem?: string;
}

const NAMESPACE_FLAG = /^(?:-n|--namespace|[–—]n|[–—]namespace)$/;
const NAMESPACE_FLAG_INLINE = /^(?:--namespace=|-n=?)(.+)$/;
const CLUSTER_FLAG = /^(?:--|[–—])cluster$/;
const CLUSTER_FLAG_INLINE = /^(?:--|[–—])cluster=(.+)$/;

export function splitArgs(words: readonly string[]): SplitArgs {
  const positionals: string[] = [];
  let namespace: string | undefined;
  let cluster: string | undefined;
  for (let i = 0; i < words.length; i += 1) {
    const w = words[i]!;
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
    else if (w.startsWith('-') || /^[–—]/.test(w)) return { positionals, problem: `Unknown option "${w.slice(0, 40)}".` };
    else positionals.push(w);
  }
  return { positionals, ...(namespace !== undefined ? { namespace } : {}), ...(cluster !== undefined ? { cluster } : {}) };
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
