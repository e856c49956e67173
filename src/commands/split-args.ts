/**
 * The one argument splitter of the bot's commands: the words after the subcommand become positionals
 * and the `-n NAMESPACE` value (also `--namespace`, `--namespace=NS`, `-nNS`, and the dashes Slack
 * clients turn `--` into). An unknown option or a `-n` without a value is a problem to show.
 */
export interface SplitArgs {
  positionals: string[];
  namespace?: string;
  problem?: string;
}

const NAMESPACE_FLAG = /^(?:-n|--namespace|[–—]n|[–—]namespace)$/;
const NAMESPACE_FLAG_INLINE = /^(?:--namespace=|-n=?)(.+)$/;

export function splitArgs(words: readonly string[]): SplitArgs {
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

/** The words of a command's text; leading mentions of an app mention (`<@U0BOT>`) dropped. */
export function commandWords(text: string): string[] {
  return stripMentions(text).split(/\s+/).filter(Boolean);
}

/** Drops leading mentions such as `<@U0BOT>` from an app mention's text. */
export function stripMentions(text: string): string {
  return text.replace(/^(\s*<@[A-Z0-9]+(\|[^>]*)?>\s*)+/i, '').trim();
}
