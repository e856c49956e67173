/**
 * Reads a request body up to a cap, refusing before buffering: a Content-Length over the cap is
 * refused without reading a byte, and a body without one (chunked) is counted as it arrives and
 * refused the moment it passes the cap. Each byte is taken from a shared budget as it arrives
 * (body-budget.ts), so a burst of large requests cannot add up to the pod's memory limit and a
 * declared length that never arrives holds nothing. A body not whole within `deadlineMs` of the
 * start of its read, or evicted by the budget as slow, is 'too slow'.
 */
import type { IncomingMessage } from 'node:http';
import type { BodyBudget } from './body-budget.js';

export type BodyRead =
  | { ok: true; body: Buffer }
  | { ok: false; reason: 'too large' | 'busy' | 'too slow' | 'aborted' };

export interface BodyLimits {
  maxBytes: number;
  budget: BodyBudget;
  /** The whole body arrives within this long, ms. */
  deadlineMs: number;
}

export function readCappedBody(req: IncomingMessage, limits: BodyLimits): Promise<BodyRead> {
  const { maxBytes, budget } = limits;
  const declared = req.headers['content-length'] === undefined ? null : Number(req.headers['content-length']);
  if (declared !== null && !(declared <= maxBytes)) return Promise.resolve({ ok: false, reason: 'too large' });
  return new Promise<BodyRead>((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: BodyRead) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      claim.release();
      chunks.length = 0;
      req.off('data', onData);
      resolve(result);
    };
    const claim = budget.open(() => finish({ ok: false, reason: 'too slow' }));
    const deadline = setTimeout(() => finish({ ok: false, reason: 'too slow' }), limits.deadlineMs);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) return finish({ ok: false, reason: 'too large' });
      if (!claim.take(chunk.length)) return finish({ ok: false, reason: 'busy' });
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => {
      const body = chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks, size);
      finish({ ok: true, body });
    });
    req.once('error', () => finish({ ok: false, reason: 'aborted' }));
    req.once('close', () => finish({ ok: false, reason: 'aborted' }));
  });
}
