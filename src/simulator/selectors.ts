/**
 * Label selectors (`a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`) and field
 * selectors (`path=value`, `path==value`, `path!=value` on any dotted path) as kube parses them.
 * A malformed selector is a 400 BadRequest.
 */
import { badRequest } from './api-error.js';

type Requirement =
  | { key: string; op: 'eq' | 'neq'; value: string }
  | { key: string; op: 'in' | 'notin'; values: string[] }
  | { key: string; op: 'exists' | 'notexists' };

export type ObjectMatcher = (object: Record<string, unknown>) => boolean;

/** Splits on commas that are not inside parentheses. */
function splitTerms(selector: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of selector) {
    if (ch === '(') depth += 1;
    if (ch === ')') depth -= 1;
    if (ch === ',' && depth === 0) {
      terms.push(current);
      current = '';
    } else current += ch;
  }
  terms.push(current);
  return terms.map((t) => t.trim()).filter((t) => t.length > 0);
}

export function parseLabelSelector(selector: string): Requirement[] {
  return splitTerms(selector).map((term) => {
    const set = /^([^\s!=(),]+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(term);
    if (set) {
      const values = set[3]!
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v.length > 0);
      return { key: set[1]!, op: set[2] as 'in' | 'notin', values };
    }
    const eq = /^([^\s!=(),]+)\s*(==|=|!=)\s*([^\s!=(),]*)$/.exec(term);
    if (eq) return { key: eq[1]!, op: eq[2] === '!=' ? 'neq' : 'eq', value: eq[3]! };
    const notExists = /^!\s*([^\s!=(),]+)$/.exec(term);
    if (notExists) return { key: notExists[1]!, op: 'notexists' };
    if (/^[^\s!=(),]+$/.test(term)) return { key: term, op: 'exists' };
    throw badRequest(`unable to parse requirement: invalid label selector "${selector}"`);
  });
}

function matchRequirement(req: Requirement, value: string | undefined): boolean {
  switch (req.op) {
    case 'eq':
      return value === req.value;
    case 'neq':
      return value !== req.value;
    case 'in':
      return value !== undefined && req.values.includes(value);
    case 'notin':
      return value === undefined || !req.values.includes(value);
    case 'exists':
      return value !== undefined;
    case 'notexists':
      return value === undefined;
  }
}

export function labelSelectorMatcher(selector: string | undefined): ObjectMatcher {
  if (!selector?.trim()) return () => true;
  const requirements = parseLabelSelector(selector);
  return (object) => {
    const labels = ((object.metadata as { labels?: Record<string, string> } | undefined)?.labels ?? {}) as Record<
      string,
      unknown
    >;
    return requirements.every((r) =>
      matchRequirement(r, typeof labels[r.key] === 'string' ? (labels[r.key] as string) : undefined),
    );
  };
}

/** The value at a dotted path as a field selector compares it ("" when absent). */
export function fieldValue(object: Record<string, unknown>, path: string): string {
  let current: unknown = object;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return '';
    current = (current as Record<string, unknown>)[part];
  }
  if (current === undefined || current === null) return '';
  return typeof current === 'object' ? JSON.stringify(current) : String(current);
}

export function fieldSelectorMatcher(selector: string | undefined): ObjectMatcher {
  if (!selector?.trim()) return () => true;
  const requirements = splitTerms(selector).map((term) => {
    const m = /^([^=!\s]+)\s*(==|=|!=)\s*(.*)$/.exec(term);
    if (!m) throw badRequest(`invalid field selector: "${term}": expected a path, an operator (=, ==, !=) and a value`);
    return { path: m[1]!, negate: m[2] === '!=', value: m[3]!.trim() };
  });
  return (object) => requirements.every((r) => (fieldValue(object, r.path) === r.value) !== r.negate);
}
