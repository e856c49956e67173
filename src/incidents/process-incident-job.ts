/**
 * The incident jobs' processor, a plain async function (see incident-queue.ts for the kinds).
 * open: diagnose (outside any lock), then under the lock of (channel, root cause) join the group
 * incident still inside its window or open a new one: post ONE root message in the alerts channel and
 * the diagnosis in its thread (rendered as for `/isvc diagnose`). A service already in an incident
 * gets a "root cause changed" note and the new diagnosis in the same thread when the code changed,
 * nothing otherwise. recover / refresh: under the incident's lock, post the notes not yet posted and
 * update the root message in place ("recovered after 12m"). Slack failures throw, so BullMQ retries;
 * every step is idempotent, so a retry (or a restarted worker) resumes where it stopped.
 */
import { randomBytes } from 'node:crypto';
import { UnrecoverableError } from 'bullmq';
import type { Notify } from '../core/notify.js';
import type { TargetRef } from '../core/target-ref.js';
import type { Report } from '../findings/types.js';
import {
  changeRootCause,
  joinsIncident,
  markNoted,
  newIncident,
  newMember,
  pendingNotes,
  recover,
  resolve,
  type Incident,
  type Member,
} from './incident-model.js';
import { incidentJobSchema, type IncidentJob, type IncidentQueue } from './incident-queue.js';
import type { IncidentStore } from './incident-store.js';
import type { MuteStore } from './mute-store.js';
import type { IncidentEvent } from './incident-events.js';

export interface IncidentJobDeps {
  diagnose(target: TargetRef, signal?: AbortSignal): Promise<Report>;
  /** Where the incident's messages go (the Slack notifier renders and posts them); a failed post throws, so BullMQ retries. */
  notify: Notify<IncidentEvent>;
  store: IncidentStore;
  mutes: MuteStore;
  queue: IncidentQueue;
  /** The alerts channel for a namespace (alerts.channels, else alerts.channel); null: no automatic posts there. */
  channelFor(namespace: string): string | null;
  groupWindowMs: number;
  now?(): number;
  /** After a diagnosis is in an incident's thread: offer its fixes there, as `/isvc diagnose` does. */
  offerFixes?(report: Report, thread: { channel: string; rootTs: string }): Promise<unknown>;
}

/** The fixes a diagnosis offers, in its incident's thread; a failure to offer is not the incident's failure. */
async function offerFixes(deps: IncidentJobDeps, report: Report, thread: { channel: string; rootTs: string }) {
  await deps.offerFixes?.(report, thread).catch(() => undefined);
}

export type IncidentJobResult =
  | { outcome: 'opened' | 'joined' | 'root-cause-changed' | 'unchanged'; incidentId: string; rootCause: string }
  | { outcome: 'muted' | 'ready' | 'no-channel' | 'not-member' | 'refreshed' | 'skipped' };

const UNKNOWN = 'UNKNOWN';

export async function processIncidentJob(
  data: unknown,
  deps: IncidentJobDeps,
  signal?: AbortSignal,
): Promise<IncidentJobResult> {
  const parsed = incidentJobSchema.safeParse(data);
  if (!parsed.success)
    throw new UnrecoverableError(
      `JOB_DATA_INVALID: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`,
    );
  const job = parsed.data;
  switch (job.kind) {
    case 'open':
      return openJob(job, deps, signal);
    case 'recover':
      return recoverJob(job, deps);
    case 'refresh':
      return refreshJob(job.incidentId, deps);
  }
}

async function openJob(
  job: Extract<IncidentJob, { kind: 'open' }>,
  deps: IncidentJobDeps,
  signal?: AbortSignal,
): Promise<IncidentJobResult> {
  const target = { namespace: job.namespace, name: job.name };
  const key = `${target.namespace}/${target.name}`;
  const now = deps.now ?? Date.now;
  const existing = await deps.store.memberOf(key);
  if (!existing) {
    if (await deps.mutes.isMuted(key)) return { outcome: 'muted' };
    if (!(await deps.store.isUnready(key))) return { outcome: 'ready' };
  }
  const channel = deps.channelFor(target.namespace);
  if (!channel) return { outcome: 'no-channel' };
  const report = await deps.diagnose(target, signal);
  if (report.ready) return { outcome: 'ready' };
  const rootCause = report.rootCause ?? UNKNOWN;
  if (existing) return rediagnosed(existing, key, report, rootCause, deps);
  return deps.store.withLock(`group:${channel}:${rootCause}`, async () => {
    const groupId = await deps.store.groupOf(channel, rootCause);
    const group = groupId ? await deps.store.getIncident(groupId) : null;
    if (group && joinsIncident(group, channel, rootCause, now(), deps.groupWindowMs)) {
      return deps.store.withLock(`incident:${group.id}`, async () => {
        if (!(await deps.store.claimMember(key, group.id))) return { outcome: 'ready' } as const;
        await deps.store.putMembers(group.id, [newMember(target, rootCause, job.unreadySince, now(), false)]);
        await deps.queue.refresh(group.id);
        return { outcome: 'joined', incidentId: group.id, rootCause } as const;
      });
    }
    const incident = newIncident(
      `inc-${now().toString(36)}-${randomBytes(3).toString('hex')}`,
      channel,
      rootCause,
      now(),
    );
    const cause = report.findings.find((f) => f.code === report.rootCause);
    const links = report.findings
      .filter((f) => f.code === 'TRACING_LINKS')
      .flatMap((f) =>
        f.evidence.flatMap((e) => (e.kind === 'link' && e.url ? [{ label: e.text ?? e.ref, url: e.url }] : [])),
      );
    if (cause)
      incident.headline = {
        title: cause.title,
        ...(cause.next ? { next: cause.next } : {}),
        ...(links.length ? { links: links.slice(0, 4) } : {}),
      };
    return deps.store.withLock(`incident:${incident.id}`, async () => {
      if (!(await deps.store.claimMember(key, incident.id))) return { outcome: 'ready' } as const;
      const member = newMember(target, rootCause, job.unreadySince, now(), true);
      await deps.store.putIncident(incident);
      await deps.store.putMembers(incident.id, [member]);
      await deps.store.setGroup(channel, rootCause, incident.id, deps.groupWindowMs);
      await postOpening(incident, [member], report, deps);
      return { outcome: 'opened', incidentId: incident.id, rootCause } as const;
    });
  });
}

/** The root message, then the diagnosis in its thread; each step recorded so a retry does not repeat it. */
async function postOpening(
  incident: Incident,
  members: Member[],
  report: Report,
  deps: IncidentJobDeps,
): Promise<void> {
  const now = deps.now ?? Date.now;
  if (!incident.rootTs) {
    incident.rootTs = (await deps.notify({ kind: 'incident-opened', incident, members, now: now() })) ?? '';
    await deps.store.putIncident(incident);
  }
  if (!incident.threadPosted) {
    await deps.notify({
      kind: 'incident-diagnosis',
      thread: { channel: incident.channel, rootTs: incident.rootTs },
      report,
    });
    incident.threadPosted = true;
    await deps.store.putIncident(incident);
    await offerFixes(deps, report, { channel: incident.channel, rootTs: incident.rootTs });
  }
}

/** A member diagnosed again (its status changed): a new root cause goes in the same thread. */
async function rediagnosed(
  incidentId: string,
  key: string,
  report: Report,
  rootCause: string,
  deps: IncidentJobDeps,
): Promise<IncidentJobResult> {
  return deps.store.withLock(`incident:${incidentId}`, async () => {
    const incident = await deps.store.getIncident(incidentId);
    const member = await deps.store.getMember(incidentId, key);
    if (!incident || !member || member.recoveredAt !== null) return { outcome: 'not-member' } as const;
    if (!incident.rootTs || !incident.threadPosted) {
      // A previous attempt claimed the member but did not finish posting: finish now.
      await postOpening(incident, await deps.store.members(incidentId), report, deps);
      return { outcome: 'opened', incidentId, rootCause } as const;
    }
    const change = changeRootCause(member, rootCause);
    if (!change.changed) return { outcome: 'unchanged', incidentId, rootCause } as const;
    if (!(await deps.mutes.isMuted(key))) {
      await deps.notify({
        kind: 'incident-root-cause-changed',
        thread: { channel: incident.channel, rootTs: incident.rootTs },
        member,
        from: change.from,
        to: rootCause,
      });
      await deps.notify({
        kind: 'incident-diagnosis',
        thread: { channel: incident.channel, rootTs: incident.rootTs },
        report,
      });
      await offerFixes(deps, report, { channel: incident.channel, rootTs: incident.rootTs });
    }
    await deps.store.putMembers(incidentId, [change.member]);
    const members = await deps.store.members(incidentId);
    if (members.length === 1)
      await deps.notify({
        kind: 'incident-updated',
        thread: { channel: incident.channel, rootTs: incident.rootTs },
        incident,
        members,
        now: (deps.now ?? Date.now)(),
      });
    return { outcome: 'root-cause-changed', incidentId, rootCause } as const;
  });
}

async function recoverJob(
  job: Extract<IncidentJob, { kind: 'recover' }>,
  deps: IncidentJobDeps,
): Promise<IncidentJobResult> {
  const key = `${job.namespace}/${job.name}`;
  // The watcher cleared the claim's condition already; the claim itself may still be there.
  const incidentId = (await deps.store.memberOf(key)) ?? null;
  if (!incidentId) return { outcome: 'not-member' };
  await deps.store.withLock(`incident:${incidentId}`, async () => {
    const member = await deps.store.getMember(incidentId, key);
    if (member) await deps.store.putMembers(incidentId, [recover(member, job.at, job.by)]);
    await deps.store.releaseMember(key, incidentId);
  });
  const incident = await deps.store.getIncident(incidentId);
  const members = incident ? await deps.store.members(incidentId) : [];
  // A lone service's recovery is told at once; in a group, recoveries are batched like joins.
  if (members.length <= 1) await refreshJob(incidentId, deps);
  else await deps.queue.refresh(incidentId);
  return { outcome: 'refreshed' };
}

async function refreshJob(incidentId: string, deps: IncidentJobDeps): Promise<IncidentJobResult> {
  const now = deps.now ?? Date.now;
  return deps.store.withLock(`incident:${incidentId}`, async () => {
    let incident = await deps.store.getIncident(incidentId);
    if (!incident?.rootTs || incident.status === 'resolved') return { outcome: 'skipped' } as const;
    const thread = { channel: incident.channel, rootTs: incident.rootTs };
    const members = await deps.store.members(incidentId);
    const notes = pendingNotes(incident, members);
    if (notes.joined.length > 0)
      await deps.notify({ kind: 'incident-joined', thread, joined: notes.joined, rootCause: incident.rootCause });
    const recoveredNote = notes.resolves && members.length === 1 ? [] : notes.recovered;
    if (recoveredNote.length > 0) await deps.notify({ kind: 'incident-recovered', thread, recovered: recoveredNote });
    const noted = markNoted(members);
    await deps.store.putMembers(incidentId, noted);
    if (notes.resolves) {
      incident = resolve(incident, noted);
      await deps.notify(
        members.length === 1
          ? { kind: 'incident-recovered', thread, recovered: noted }
          : { kind: 'incident-resolved', thread, members: noted, now: incident.resolvedAt ?? now() },
      );
      await deps.store.putIncident(incident);
      await deps.store.clearGroup(incident.channel, incident.rootCause, incident.id);
    }
    await deps.notify({
      kind: 'incident-updated',
      thread,
      incident,
      members: noted,
      now: incident.resolvedAt ?? now(),
    });
    return { outcome: 'refreshed' } as const;
  });
}
