/**
 * The import graph is one-way: a module may import its own top-level folder or a lower one, never a
 * higher one, in the layer order drawn in docs/architecture.md (the `layers` block, highest first).
 * Every top-level folder of src/ (and handlers/, playbooks/) must appear in that order.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';

const ROOTS = ['src', 'handlers', 'playbooks'];

/** Layer names from the doc, lowest first. */
function documentedLayers(): string[] {
  const doc = readFileSync('docs/architecture.md', 'utf8');
  const block = /```text layers\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error('docs/architecture.md has no ```text layers block');
  return block
    .split('\n')
    .map((line) => line.trim().split(/\s+/)[0]?.replace(/\/$/, '') ?? '')
    .filter(Boolean)
    .reverse();
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sourceFiles(path.join(dir, e.name))
      : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') // a unit's test beside it is a test
        ? [path.join(dir, e.name)]
        : [],
  );
}

/** The layer of a repository path: src/<folder>/…, src/config.ts → "config", handlers/… → "handlers". */
function layerOf(file: string): string {
  const [root, second] = file.split(path.sep);
  if (root !== 'src') return root!;
  return second!.replace(/\.ts$/, '');
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g),
  ].map((m) => m[1] ?? m[2]!);
  return specs.map((s) => path.normalize(path.join(path.dirname(file), s)).replace(/\.js$/, '.ts'));
}

describe('layers', () => {
  const layers = documentedLayers();
  const rank = new Map(layers.map((l, i) => [l, i]));
  const files = ROOTS.flatMap((r) => sourceFiles(r));

  it('names every top-level folder of the source in docs/architecture.md', () => {
    const used = [...new Set(files.map(layerOf))].sort();
    expect(used.filter((l) => !rank.has(l))).toEqual([]);
  });

  it('never lets a lower layer import a higher one', () => {
    const wrong: string[] = [];
    for (const file of files) {
      const from = layerOf(file);
      for (const target of importsOf(file)) {
        const to = layerOf(target);
        if (to !== from && (rank.get(to) ?? -1) > (rank.get(from) ?? -1))
          wrong.push(`${file} (${from}) imports ${target} (${to})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  // The development tools stand in for a cluster and for Slack; only the executable's own subcommands
  // (cli/: simulate, playground, --snapshot) may load them, so nothing the bot runs in production can.
  it('keeps the development tools (simulator, Slack stand-in, playground) off the product path', () => {
    const tools = new Set(['simulator', 'slack-standin', 'playground']);
    const wrong: string[] = [];
    for (const file of files) {
      const from = layerOf(file);
      if (tools.has(from) || from === 'cli') continue;
      for (const target of importsOf(file)) {
        if (tools.has(layerOf(target))) wrong.push(`${file} (${from}) imports ${target}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
