/**
 * After a change: wait (bounded) for the controller to observe the InferenceService's new
 * generation, then re-diagnose until it is Ready or the time is up, and say which: fixed, the same
 * root cause, or a new one. A plan that names the service its change is verified on (`verifies`:
 * the member of a routing group that takes a failing member's traffic) is re-diagnosed there.
 */
import { errorCode } from '../core/error-message.js';
import type { ObjectRef } from '../kube/cluster-writer.js';
import type { Proposal } from './proposal.js';
import type { RemediationDeps } from './remediation-deps.js';
import type { VerifyOutcome } from './remediation-events.js';

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });

async function generations(deps: RemediationDeps, ref: ObjectRef): Promise<{ generation?: number; observed?: number }> {
  const live = await deps.writer.get(ref);
  const observed = (live?.status as { observedGeneration?: unknown } | undefined)?.observedGeneration;
  return { generation: live?.metadata.generation, observed: typeof observed === 'number' ? observed : undefined };
}

export async function verifyRemediation(
  deps: RemediationDeps,
  p: Proposal,
  signal?: AbortSignal,
): Promise<{ outcome: VerifyOutcome; waitedSeconds: number }> {
  const started = deps.now();
  const deadline = started + deps.config.verifyTimeoutMs;
  const waited = () => Math.round((deps.now() - started) / 1000);
  const touchesIsvc = p.plan.target.kind === 'InferenceService';
  const expected = touchesIsvc ? (await generations(deps, p.plan.isvc)).generation : undefined;
  try {
    for (;;) {
      if (expected !== undefined) {
        const { observed } = await generations(deps, p.plan.isvc);
        if (observed !== undefined && observed < expected && deps.now() < deadline && !signal?.aborted) {
          await sleep(deps.config.verifyPollMs, signal);
          continue;
        }
      }
      const report = await deps.diagnose(p.plan.verifies ?? p.target, signal);
      if (report.ready && (!p.plan.verifies || report.rootCause === null))
        return { outcome: { kind: 'fixed', report }, waitedSeconds: waited() };
      if (deps.now() >= deadline || signal?.aborted) {
        const same = p.findingCode !== null && report.rootCause === p.findingCode;
        return { outcome: { kind: same ? 'same' : 'new-root-cause', report }, waitedSeconds: waited() };
      }
      await sleep(deps.config.verifyPollMs, signal);
    }
  } catch (error) {
    return {
      outcome: { kind: 'unknown', reason: `${errorCode(error)}: the diagnosis could not run` },
      waitedSeconds: waited(),
    };
  }
}
