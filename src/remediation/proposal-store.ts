/**
 * Proposals in Redis: one hash per proposal (`data` JSON plus its state fields), kept a week past
 * its expiry for the record. State changes are compare-and-set in a Lua script, so of many
 * concurrent clicks (on any number of bot replicas) exactly one moves a proposal from `pending` to
 * `approved`, and of two workers exactly one moves it on to `applying`.
 */
import type { Redis } from 'ioredis';
import type { Proposal, ProposalRecord, ProposalState } from './proposal.js';

const KEEP_AFTER_EXPIRY_MS = 7 * 24 * 3600 * 1000;

const TRANSITION = `
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return {'missing', ''} end
for i = 4, #ARGV do
  if ARGV[i] == state then
    redis.call('HSET', KEYS[1], 'state', ARGV[1], 'decidedBy', ARGV[2], 'decidedAt', ARGV[3])
    return {'ok', state}
  end
end
return {state, redis.call('HGET', KEYS[1], 'decidedBy') or ''}
`;

export type TransitionResult =
  | { ok: true; from: ProposalState }
  | { ok: false; state: ProposalState | 'missing'; by: string | null };

export class ProposalStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(id: string): string {
    return `${this.prefix}:remediation:proposal:${id}`;
  }

  async create(p: Proposal): Promise<void> {
    const key = this.key(p.id);
    await this.redis
      .multi()
      .hset(key, {
        data: JSON.stringify(p),
        state: 'pending',
        decidedBy: '',
        decidedAt: '',
        messageTs: '',
        supersededBy: '',
        note: '',
      })
      .pexpireat(key, p.expiresAt + KEEP_AFTER_EXPIRY_MS)
      .exec();
  }

  async get(id: string): Promise<ProposalRecord | null> {
    const h = await this.redis.hgetall(this.key(id));
    if (!h.data) return null;
    return {
      proposal: JSON.parse(h.data) as Proposal,
      state: h.state as ProposalState,
      decidedBy: h.decidedBy || null,
      decidedAt: h.decidedAt ? Number(h.decidedAt) : null,
      messageTs: h.messageTs || null,
      supersededBy: h.supersededBy || null,
      note: h.note || null,
    };
  }

  /** Moves the proposal to `to` if its state is one of `from`; otherwise says what it is. */
  async transition(
    id: string,
    from: ProposalState[],
    to: ProposalState,
    by: string | null,
    now = Date.now(),
  ): Promise<TransitionResult> {
    const [a, b] = (await this.redis.eval(TRANSITION, 1, this.key(id), to, by ?? '', String(now), ...from)) as [
      string,
      string,
    ];
    if (a === 'ok') return { ok: true, from: b as ProposalState };
    return { ok: false, state: a as ProposalState | 'missing', by: b || null };
  }

  async setFields(id: string, fields: Partial<Record<'messageTs' | 'supersededBy' | 'note', string>>): Promise<void> {
    if (Object.keys(fields).length > 0) await this.redis.hset(this.key(id), fields);
  }
}
