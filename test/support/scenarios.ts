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
  /**
   * Terms the root cause's next step must name (for a service with no root cause: any finding's next
   * step or note), written from the report's fix; each a case-insensitive alternation ("a|b"). Every
   * scenario has the key; it is empty only for a healthy service with nothing to do.
   */
  next: string[];
  /** Terms it must not name (a wrong target: the default's field when the canary fails, a kind this Istio lacks). */
  nextNot: string[];
}

export interface Scenario {
  name: string;
  dir: string;
  expect: ScenarioExpect;
}

export const SCENARIOS_DIR = path.resolve('test/scenarios');

function terms(raw: unknown, file: string, key: string): string[] {
  if (!Array.isArray(raw) || raw.some((t) => typeof t !== 'string'))
    throw new Error(`${file}: ${key} must be a list of terms (e.g. ${key}: ['storageUri', 'a|b'])`);
  return raw as string[];
}

export function listScenarios(): Scenario[] {
  if (!existsSync(SCENARIOS_DIR)) return [];
  return readdirSync(SCENARIOS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(SCENARIOS_DIR, d.name, 'expect.yaml')))
    .map((d) => {
      const dir = path.join(SCENARIOS_DIR, d.name);
      const file = path.join(dir, 'expect.yaml');
      const raw = parseYaml(readFileSync(file, 'utf8')) as Partial<ScenarioExpect> & {
        target: ScenarioExpect['target'];
      };
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
          next: terms(raw.next, file, 'next'),
          nextNot: terms(raw.nextNot ?? [], file, 'nextNot'),
        },
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}
