/** A row of the performance table: what it measures, and the lines it adds to the final table. */
import type { BenchContext } from './bench-context.js';

export interface TableLine {
  row: string;
  figure: string;
  anchor: string;
  ratio: string;
  target: string;
  /** null: cannot be judged with today's code (the reason is in `figure` or `target`). */
  met: boolean | null;
}

export interface BenchRow {
  id: string;
  title: string;
  run(ctx: BenchContext): Promise<TableLine[]>;
}

/** Whether a row was asked for (no row named: all are). */
export function rowSelected(ctx: BenchContext, id: string): boolean {
  return ctx.options.rows.length === 0 || ctx.options.rows.includes(id);
}
