/**
 * `npm run bench -- [--runs N] [--quick] [ROW ...]`: measures the rows of the performance table
 * against real child processes (the built `isvc-doctor` bin: `simulate`, `diagnose`, `serve`),
 * each figure next to its anchor measured the same way in the same run, and prints the table.
 * Never part of `npm test`. docs/benchmarks.md says what each row measures and records figures.
 */
import os from 'node:os';
import { createBenchContext } from './bench-context.js';
import { BENCH_USAGE, BenchUsageError, parseBenchOptions, type BenchOptions } from './bench-options.js';
import type { TableLine } from './bench-row.js';
import { BENCH_ROWS } from './bench-rows.js';
import { finalTable } from './final-table.js';
import { killAllChildren } from './listening-process.js';
import { settleNodeStartEnv } from './node-start-env.js';

function load(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

async function runRows(options: BenchOptions): Promise<TableLine[]> {
  const ctx = createBenchContext(options);
  const stop = () => {
    killAllChildren();
    void ctx.close().finally(() => process.exit(130));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const lines: TableLine[] = [];
  try {
    for (const row of BENCH_ROWS.filter((r) => options.rows.length === 0 || options.rows.includes(r.id))) {
      const started = performance.now();
      console.log(`\n${row.id}: ${row.title}`);
      try {
        lines.push(...(await row.run(ctx)));
      } catch (error) {
        const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 160);
        console.log(`    failed: ${reason}`);
        lines.push({ row: row.id, figure: `not measured: ${reason}`, anchor: '', ratio: '', target: '', met: null });
      }
      console.log(`    (${((performance.now() - started) / 1000).toFixed(0)} s, load ${load()})`);
    }
  } finally {
    await ctx.close();
  }
  return lines;
}

async function main(): Promise<number> {
  let options: BenchOptions | 'help';
  try {
    options = parseBenchOptions(
      process.argv.slice(2),
      BENCH_ROWS.map((r) => r.id),
    );
  } catch (error) {
    if (!(error instanceof BenchUsageError)) throw error;
    console.error(`bench: ${error.message}\n${BENCH_USAGE.replace('%ROWS%', BENCH_ROWS.map((r) => r.id).join(' '))}`);
    return 2;
  }
  if (options === 'help') {
    console.log(BENCH_USAGE.replace('%ROWS%', BENCH_ROWS.map((r) => r.id).join(' ')));
    return 0;
  }
  const started = performance.now();
  console.log(
    `isvc-doctor bench: ${options.runs} run(s)${options.quick ? ', quick (smaller sizes: figures not comparable)' : ''}; ${os.cpus().length} cores, Node ${process.version}, load ${load()}, ${new Date().toISOString()}`,
  );
  const envLine = await settleNodeStartEnv(options);
  if (envLine) console.log(`    ${envLine}`);
  const lines = await runRows(options);
  console.log(`\n${finalTable(lines)}`);
  console.log(
    `\nmedians over ${options.runs} run(s), [min–max] across runs (and scenarios); ${((performance.now() - started) / 1000).toFixed(0)} s in all, load ${load()}`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
