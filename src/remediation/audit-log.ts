/**
 * The append-only audit record of remediations: a Redis stream with one entry per event: proposed,
 * approved, rejected, refused, expired, superseded, applied, failed, verified; who, when, the
 * action, the object, the patch, the outcome. Each XADD caps the stream at about `maxEntries`
 * (`MAXLEN ~`: Redis drops whole nodes of the oldest entries, so it may keep up to a node more),
 * the config's `remediation.auditMaxEntries`; entries are never changed.
 */
import type { Redis } from 'ioredis';
import { redactDeep } from '../logs/redact-deep.js';

export type AuditEvent =
  | 'proposed'
  | 'approved'
  | 'rejected'
  | 'refused'
  | 'expired'
  | 'superseded'
  | 'applied'
  | 'failed'
  | 'verified';

export interface AuditEntry {
  event: AuditEvent;
  proposalId: string;
  action: string;
  /** "Kind namespace/name" of the object that changes. */
  object: string;
  /** Slack user id, or "isvc-doctor" for the bot's own steps. */
  actor: string;
  /** JSON of the write (patch or pods deleted), for proposed/applied. */
  patch?: string;
  outcome?: string;
}

export interface AuditRecord extends AuditEntry {
  id: string;
  at: string;
}

/** The entries the stream keeps unless configured otherwise (about 300 bytes each with a patch: 10000 take about 3 MB). */
export const DEFAULT_AUDIT_MAX_ENTRIES = 10_000;

export class AuditLog {
  readonly key: string;
  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly maxEntries = DEFAULT_AUDIT_MAX_ENTRIES,
  ) {
    this.key = `${prefix}:remediation:audit`;
  }

  async append(entry: AuditEntry, now = new Date()): Promise<string> {
    // an outcome or a patch may quote the cluster (an API error, a value): the stream keeps no secret
    const fields = Object.entries({ at: now.toISOString(), ...redactDeep(entry) }).flatMap(([k, v]) =>
      v === undefined ? [] : [k, String(v)],
    );
    return (await this.redis.xadd(this.key, 'MAXLEN', '~', this.maxEntries, '*', ...fields)) ?? '';
  }

  /** Entries, oldest first (optionally those of one proposal). */
  async list(proposalId?: string, count = 1000): Promise<AuditRecord[]> {
    const rows = await this.redis.xrange(this.key, '-', '+', 'COUNT', count);
    const out = rows.map(([id, kv]) => {
      const o: Record<string, string> = {};
      for (let i = 0; i < kv.length; i += 2) o[kv[i]!] = kv[i + 1]!;
      return { id, ...o } as unknown as AuditRecord;
    });
    return proposalId ? out.filter((r) => r.proposalId === proposalId) : out;
  }
}
