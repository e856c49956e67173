/**
 * The operation of `/isvc rollout NAME [-n NS] [OP]`: `promote`, `rollback`, or a split
 * `STABLE/CANARY` such as `90/10` (the two must add up to 100). Each maps to one remediation action.
 */
import type { ActionId } from './actions/index.js';

export type RolloutOp = { kind: 'promote' } | { kind: 'rollback' } | { kind: 'split'; canaryPercent: number };

/** The op, or a problem to show the user. */
export function parseRolloutOp(word: string): RolloutOp | string {
  const w = word.toLowerCase();
  if (w === 'promote') return { kind: 'promote' };
  if (w === 'rollback' || w === 'roll-back') return { kind: 'rollback' };
  const m = /^(\d{1,3})\/(\d{1,3})$/.exec(w);
  if (m) {
    const stable = Number(m[1]);
    const canary = Number(m[2]);
    if (stable + canary !== 100) return `A split must add up to 100 (got ${stable}/${canary}).`;
    return { kind: 'split', canaryPercent: canary };
  }
  return `Unknown rollout operation "${word.slice(0, 40)}": use promote, rollback or a split such as 90/10.`;
}

/** The remediation action and params for an op. */
export function rolloutAction(op: RolloutOp): { action: ActionId; params: Record<string, unknown> } {
  if (op.kind === 'promote') return { action: 'promote-canary', params: {} };
  if (op.kind === 'rollback') return { action: 'rollback-canary', params: {} };
  return { action: 'set-canary-traffic', params: { canaryPercent: op.canaryPercent } };
}
