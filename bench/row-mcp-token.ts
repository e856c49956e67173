/**
 * The MCP endpoint's bearer-token check costs the same whatever part of a wrong token was right:
 * the fastest of 60 rounds of 200 checks for a token wrong in its last character, wrong throughout,
 * too short, and right; the spread between the slowest and the fastest kind is the row's ratio.
 */
import { performance } from 'node:perf_hooks';
import { tokenChecker } from '../src/mcp/mcp-http.js';
import type { BenchRow } from './bench-row.js';

const TOKEN = 'mcp-agent-0123456789abcdef0123456789abcdef';

export const mcpTokenRow: BenchRow = {
  id: 'mcp-token',
  title: 'MCP bearer-token check: time by how much of a wrong token was right',
  async run(ctx) {
    const check = tokenChecker([
      { name: 'agent', token: TOKEN },
      { name: 'other', token: `${TOKEN}-other` },
    ]);
    // flat strings, as a header arrives (a concatenated string would time its own flattening)
    const flat = (text: string) => Buffer.from(text).toString();
    const candidates: Record<string, string> = {
      almost: flat(`Bearer ${TOKEN.slice(0, -1)}x`),
      nothing: flat(`Bearer ${'z'.repeat(TOKEN.length)}`),
      short: flat('Bearer z'),
      right: flat(`Bearer ${TOKEN}`),
    };
    const fastest: Record<string, number> = Object.fromEntries(Object.keys(candidates).map((k) => [k, Infinity]));
    // rounds in a new order each time, so the machine's other work and the collector fall on every kind alike
    for (let round = 0; round < 60; round += 1)
      for (const [kind, auth] of Object.entries(candidates).sort(() => Math.random() - 0.5)) {
        const t0 = performance.now();
        for (let i = 0; i < 200; i += 1) check(auth);
        fastest[kind] = Math.min(fastest[kind] ?? Infinity, (performance.now() - t0) / 200);
      }
    const times = Object.values(fastest);
    const ratio = Math.max(...times) / Math.min(...times);
    ctx.detail(
      Object.entries(fastest)
        .map(([k, ms]) => `${k} ${(ms * 1000).toFixed(2)} µs`)
        .join(', '),
    );
    return [
      {
        row: 'MCP token check, slowest / fastest kind of token',
        figure: `${(Math.max(...times) * 1000).toFixed(2)} µs`,
        anchor: `fastest kind ${(Math.min(...times) * 1000).toFixed(2)} µs`,
        ratio: `${ratio.toFixed(2)}×`,
        target: '< 1.5×',
        met: ratio < 1.5,
      },
    ];
  },
};
