/**
 * Every finding whose code has a next step in the catalog carries it (`next`), filled with the
 * service's names, unless the playbook that produced it gave a more specific one.
 */
import { CATALOG } from './catalog.js';
import type { NextStepContext } from './next-step-context.js';
import type { Finding } from './types.js';

export function withNextStep(f: Finding, ctx: NextStepContext): Finding {
  if (f.next) return f;
  const template = CATALOG[f.code].next;
  return template ? { ...f, next: template(ctx, f) } : f;
}
