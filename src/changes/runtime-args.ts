/**
 * A runtime's command-line args with one flag set: every spelling of it (`--max-model-len=N`,
 * `--max_model_len=N`, or the flag and its value as two args) replaced by `--flag=value` at the end,
 * else added; and the value a flag has. Pure: an action's offer (from the diagnosis' reads) and its
 * plan (from the live object) compute the same change.
 */

export interface ArgChange {
  args: string[];
  /** The value it replaces, when the args set one. */
  from?: string;
}

/** `--gpu-memory-utilization` also matches `--gpu_memory_utilization`, with `=value` or the value as the next arg. */
const flagPattern = (flag: string) => new RegExp(`^--${flag.replace(/^--/, '').replace(/[-_]/g, '[-_]')}(?:=(.*))?$`);

export function withArg(args: readonly string[], flag: string, value: string): ArgChange {
  const re = flagPattern(flag);
  const out: string[] = [];
  let from: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const m = re.exec(args[i] ?? '');
    if (!m) {
      out.push(args[i] ?? '');
      continue;
    }
    if (m[1] !== undefined) from = m[1];
    else {
      from = args[i + 1];
      i++;
    }
  }
  out.push(`--${flag.replace(/^--/, '')}=${value}`);
  return { args: out, ...(from !== undefined ? { from } : {}) };
}

/** The value the args give a flag (the last one wins, as argparse reads them); undefined when absent. */
export function argValue(args: readonly string[], flag: string): string | undefined {
  const re = flagPattern(flag);
  let value: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const m = re.exec(args[i] ?? '');
    if (m) value = m[1] ?? args[i + 1];
  }
  return value;
}
