/**
 * A runtime's command-line args with one flag set: every spelling of it (`--max-model-len=N`,
 * `--max_model_len=N`, or the flag and its value as two args) replaced by `--flag=value` at the end,
 * else added; and the value a flag has. Pure: an action's offer (from the diagnosis' reads) and its
 * plan (from the live object) compute the same change.
 */
import { valueAt } from './field-changes.js';
import { RemediationError } from './remediation-error.js';

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

/** Whether a field path goes through a list (a container of `containers`), which a merge patch cannot reach. */
export const pathThroughList = (path: readonly string[]): boolean => path.some((k) => /^\d+$/.test(k));

/** A value as a runtime's args: its strings, [] when it is not a list. */
export const argsOf = (v: unknown): string[] => (Array.isArray(v) ? v.map((a) => String(a)) : []);

/**
 * The args list at `path` of the live object, for an action that merge-patches it: the path must lead
 * from spec to an args list and never through a list (else the fix is made by hand).
 */
export function patchableArgs(live: unknown, path: readonly string[]): string[] {
  if (path[0] !== 'spec' || path.at(-1) !== 'args')
    throw new RemediationError('REMEDIATION_BAD_PARAMS', 'path must lead from spec to an args list');
  if (pathThroughList(path))
    throw new RemediationError(
      'REMEDIATION_NOT_APPLICABLE',
      `${path.join('.')} is inside a list, which a merge patch cannot reach; edit it by hand`,
    );
  return argsOf(valueAt(live, path));
}
