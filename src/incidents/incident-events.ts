/**
 * What the incident jobs tell the alerts channel, as surface-neutral events: the notifier of a
 * surface renders and posts each one (src/notify/). Every event but the opening belongs to the
 * incident's thread (`rootTs`).
 */
import type { Report } from '../findings/types.js';
import type { Incident, Member } from './incident-model.js';

/** An incident's thread. */
export interface IncidentThread {
  channel: string;
  rootTs: string;
}

export type IncidentEvent =
  /** The root message in the alerts channel; the notifier resolves to its ts. */
  | { kind: 'incident-opened'; incident: Incident; members: Member[]; now: number }
  /** The root message updated in place (grouped members, recovered, lasted). */
  | { kind: 'incident-updated'; thread: IncidentThread; incident: Incident; members: Member[]; now: number }
  /** A diagnosis in the thread, rendered as for `/isvc diagnose`. */
  | { kind: 'incident-diagnosis'; thread: IncidentThread; report: Report }
  | { kind: 'incident-root-cause-changed'; thread: IncidentThread; member: Member; from: string; to: string }
  | { kind: 'incident-joined'; thread: IncidentThread; joined: Member[]; rootCause: string }
  | { kind: 'incident-recovered'; thread: IncidentThread; recovered: Member[] }
  | { kind: 'incident-resolved'; thread: IncidentThread; members: Member[]; now: number };
