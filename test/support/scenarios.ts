import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';

/** The scenario folders under test/scenarios that carry an expect.yaml, with their expectations. */
export interface ScenarioExpect {
  target: { namespace: string; name: string };
  must: string[];
  mustNot: string[];
  /** undefined: not checked; null: the service is ready and nothing is wrong. */
  rootCause?: string | null;
  mustNotContain: string[];
  source?: string;
  summary?: string;
  /** The line (as the cluster holds it) that decides the root cause. */
  decidingLine?: string;
  /** For a deciding line too long to show whole: the part of it that must be shown. */
  decidingPart?: string;
}

export interface Scenario {
  name: string;
  dir: string;
  expect: ScenarioExpect;
}

export const SCENARIOS_DIR = path.resolve('test/scenarios');

export function listScenarios(): Scenario[] {
  if (!existsSync(SCENARIOS_DIR)) return [];
  return readdirSync(SCENARIOS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(SCENARIOS_DIR, d.name, 'expect.yaml')))
    .map((d) => {
      const dir = path.join(SCENARIOS_DIR, d.name);
      const raw = parseYaml(readFileSync(path.join(dir, 'expect.yaml'), 'utf8')) as Partial<ScenarioExpect> & { target: ScenarioExpect['target'] };
      return {
        name: d.name,
        dir,
        expect: {
          target: raw.target,
          must: raw.must ?? [],
          mustNot: raw.mustNot ?? [],
          rootCause: raw.rootCause,
          mustNotContain: raw.mustNotContain ?? [],
          source: raw.source,
          summary: raw.summary,
          ...(raw.decidingLine ? { decidingLine: raw.decidingLine } : {}),
          ...(raw.decidingPart ? { decidingPart: raw.decidingPart } : {}),
        },
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}
