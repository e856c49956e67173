/**
 * The environment of the Node processes the bench measures. NODE_EXTRA_CA_CERTS makes every Node
 * process read and parse that certificate file before running any code (with the system bundle,
 * about 100 ms of a 35 ms `node -e 0` on a 2-core machine); kubectl (Go) does not read it. A person's
 * shell rarely sets it, so the bench removes it from every Node process it starts (the CLI, `serve`,
 * `simulate`, the `node -e 0` anchor) and says so with its cost measured in the run; `--keep-env`
 * keeps it.
 */
import type { BenchOptions } from './bench-options.js';
import { ms, summary } from './summary.js';
import { timedRun } from './timed-run.js';

const VARIABLE = 'NODE_EXTRA_CA_CERTS';
const SPAWNS = 5;

/** What the bench did about the variable, as one detail line; undefined when it is not set. */
export async function settleNodeStartEnv(options: BenchOptions): Promise<string | undefined> {
  const value = process.env[VARIABLE];
  if (value === undefined) return undefined;
  const without = { ...process.env };
  delete without[VARIABLE];
  const withIt: number[] = [];
  const withoutIt: number[] = [];
  for (let i = 0; i < SPAWNS; i += 1) {
    withIt.push((await timedRun(process.execPath, ['-e', '0'])).ms);
    withoutIt.push((await timedRun(process.execPath, ['-e', '0'], without)).ms);
  }
  const cost = `node -e 0 takes ${ms(summary(withIt).median)} with it, ${ms(summary(withoutIt).median)} without (median of ${SPAWNS} alternating spawns)`;
  if (options.keepEnv)
    return `${VARIABLE}=${value} kept (--keep-env) for every Node process measured: ${cost}; kubectl does not read it`;
  delete process.env[VARIABLE]; // every child below inherits process.env or copies it
  return `${VARIABLE}=${value} removed from every Node process measured (CLI, serve, simulate, node -e 0): Node reads and parses that file at each start, ${cost}; kubectl does not read it; --keep-env keeps it`;
}
