/**
 * Every finding whose code has a next step in the catalog carries it (`next`), filled with the
 * service's names, unless the playbook that produced it gave a more specific one.
 */
import { CATALOG } from './catalog.js';
import { editCommand, type NextStepContext } from './next-step-context.js';
import type { Finding } from './types.js';

export function withNextStep(f: Finding, ctx: NextStepContext): Finding {
  const template = CATALOG[f.code].next;
  return withoutIdleRestart(f.next || !template ? f : { ...f, next: template(ctx, f) }, ctx);
}

/**
 * A next step that edits the InferenceService rolls out a new revision with new pods: restarting the
 * old ones does nothing, so the restart offered "for after the cause is fixed" is withdrawn.
 */
function withoutIdleRestart(f: Finding, ctx: NextStepContext): Finding {
  return f.remediation?.action === 'restart-pods' && f.next?.startsWith(editCommand(ctx))
    ? { ...f, remediation: null }
    : f;
}
