/**
 * The incident state machine, pure: an incident is one Slack thread about one or more
 * InferenceServices that stayed unready with the same root cause. Members join (grouping), change
 * root cause, recover; the incident is resolved when every member has recovered. Notes (joined,
 * recovered) are posted in batches: `pendingNotes` says what the thread has not been told yet, and
 * `markNoted` records that it has. Fingerprint of an incident: channel + root-cause code + window.
 */
export type IncidentStatus = 'open' | 'resolved';

export interface Incident {
  id: string;
  channel: string;
  /** The root-cause code the incident was opened (grouped) for; "UNKNOWN" when no check found one. */
  rootCause: string;
  openedAt: number;
  status: IncidentStatus;
  /** The root message, once posted. */
  rootTs: string | null;
  /** The first diagnosis has been posted in the thread. */
  threadPosted: boolean;
  resolvedAt: number | null;
  /** The root cause in words and the next step, from the diagnosis that opened it (for the root message). */
  headline?: { title: string; next?: string; links?: Array<{ label: string; url: string }> };
}

export interface Member {
  key: string;
  namespace: string;
  name: string;
  /** When it was first seen unready. */
  unreadySince: number;
  joinedAt: number;
  /** Its latest diagnosed root cause (may differ from the incident's after a change). */
  rootCause: string;
  recoveredAt: number | null;
  /** "deleted" when the InferenceService went away rather than becoming Ready. */
  recoveredBy: 'ready' | 'deleted' | null;
  /** The thread has been told it joined / recovered. */
  joinNoted: boolean;
  recoveryNoted: boolean;
}

export function newIncident(id: string, channel: string, rootCause: string, now: number): Incident {
  return { id, channel, rootCause, openedAt: now, status: 'open', rootTs: null, threadPosted: false, resolvedAt: null };
}

export function newMember(
  target: { namespace: string; name: string },
  rootCause: string,
  unreadySince: number,
  now: number,
  first: boolean,
): Member {
  return {
    key: `${target.namespace}/${target.name}`,
    namespace: target.namespace,
    name: target.name,
    unreadySince,
    joinedAt: now,
    rootCause,
    recoveredAt: null,
    recoveredBy: null,
    // The first member is the subject of the root message and the first diagnosis: nothing to note.
    joinNoted: first,
    recoveryNoted: false,
  };
}

/** Whether a service diagnosed with `rootCause` now joins this incident rather than opening its own. */
export function joinsIncident(
  incident: Incident | null,
  channel: string,
  rootCause: string,
  now: number,
  windowMs: number,
): boolean {
  return (
    incident !== null &&
    incident.status === 'open' &&
    incident.channel === channel &&
    incident.rootCause === rootCause &&
    now - incident.openedAt <= windowMs
  );
}

export function recover(member: Member, at: number, by: 'ready' | 'deleted'): Member {
  if (member.recoveredAt !== null) return member;
  return { ...member, recoveredAt: at, recoveredBy: by, recoveryNoted: false };
}

export function changeRootCause(member: Member, rootCause: string): { member: Member; changed: boolean; from: string } {
  if (member.rootCause === rootCause) return { member, changed: false, from: member.rootCause };
  return { member: { ...member, rootCause }, changed: true, from: member.rootCause };
}

export interface PendingNotes {
  joined: Member[];
  recovered: Member[];
  /** Every member has recovered: the incident resolves with this refresh. */
  resolves: boolean;
}

export function pendingNotes(incident: Incident, members: Member[]): PendingNotes {
  const joined = members.filter((m) => !m.joinNoted);
  const recovered = members.filter((m) => m.recoveredAt !== null && !m.recoveryNoted);
  const resolves = incident.status === 'open' && members.length > 0 && members.every((m) => m.recoveredAt !== null);
  return { joined, recovered, resolves };
}

export function markNoted(members: Member[]): Member[] {
  return members.map((m) => ({
    ...m,
    joinNoted: true,
    recoveryNoted: m.recoveredAt !== null ? true : m.recoveryNoted,
  }));
}

export function resolve(incident: Incident, members: Member[]): Incident {
  const last = Math.max(...members.map((m) => m.recoveredAt ?? 0));
  return { ...incident, status: 'resolved', resolvedAt: last > 0 ? last : Date.now() };
}

/** How long the incident (or a member) lasted: from the earliest unready time to the last recovery (or now). */
export function outageMs(members: Member[], now: number): number {
  if (members.length === 0) return 0;
  const start = Math.min(...members.map((m) => m.unreadySince));
  const open = members.some((m) => m.recoveredAt === null);
  const end = open ? now : Math.max(...members.map((m) => m.recoveredAt ?? now));
  return Math.max(0, end - start);
}
