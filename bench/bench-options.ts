/** `npm run bench -- [--runs N] [--quick] [--keep-env] [ROW ...]`: how many runs, how big, which rows. */
export interface BenchOptions {
  runs: number;
  quick: boolean;
  /** Keep NODE_EXTRA_CA_CERTS in the measured Node processes (node-start-env.ts). */
  keepEnv: boolean;
  /** Row ids to run, in the order of the registry; empty: all. */
  rows: string[];
}

export const BENCH_USAGE = 'usage: npm run bench -- [--runs N] [--quick] [--keep-env] [ROW ...]   (rows: %ROWS%)';

export class BenchUsageError extends Error {}

export function parseBenchOptions(argv: string[], rowIds: readonly string[]): BenchOptions | 'help' {
  let runs: number | undefined;
  let quick = false;
  let keepEnv = false;
  const rows: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') return 'help';
    if (arg === '--quick') quick = true;
    else if (arg === '--keep-env') keepEnv = true;
    else if (arg === '--runs' || arg.startsWith('--runs=')) {
      const raw = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
      if (!raw || !/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 50)
        throw new BenchUsageError('--runs needs a whole number from 1 to 50');
      runs = Number(raw);
    } else if (rowIds.includes(arg)) rows.push(arg);
    else throw new BenchUsageError(`unknown row or option "${arg}"`);
  }
  return { runs: runs ?? (quick ? 1 : 3), quick, keepEnv, rows: rowIds.filter((id) => rows.includes(id)) };
}
