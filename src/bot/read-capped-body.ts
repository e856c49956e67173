/**
 * Reads a request body up to a cap, refusing before buffering: a Content-Length over the cap is
 * refused without reading a byte, and a body without one (chunked) is counted as it arrives and
 * refused the moment it passes the cap. A shared budget bounds the bytes held by all the bodies
 * being read at once, so a burst of large requests cannot add up to the pod's memory limit.
 */
import type { IncomingMessage } from 'node:http';

export type BodyRead = { ok: true; body: Buffer } | { ok: false; reason: 'too large' | 'busy' | 'aborted' };

export interface BodyBudget {
  /** Bytes all bodies being read may hold together. */
  readonly limit: number;
  held: number;
}

export function bodyBudget(limit: number): BodyBudget {
  return { limit, held: 0 };
}

export function readCappedBody(req: IncomingMessage, maxBytes: number, budget: BodyBudget): Promise<BodyRead> {
  const declared = req.headers['content-length'] === undefined ? null : Number(req.headers['content-length']);
  if (declared !== null && !(declared <= maxBytes)) return Promise.resolve({ ok: false, reason: 'too large' });
  const reserve = declared ?? maxBytes;
  if (budget.held + reserve > budget.limit) return Promise.resolve({ ok: false, reason: 'busy' });
  budget.held += reserve;
  return new Promise<BodyRead>((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: BodyRead) => {
      if (settled) return;
      settled = true;
      budget.held -= reserve;
      req.off('data', onData);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        chunks.length = 0;
        finish({ ok: false, reason: 'too large' });
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => finish({ ok: true, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) }));
    req.once('error', () => finish({ ok: false, reason: 'aborted' }));
    req.once('close', () => finish({ ok: false, reason: 'aborted' }));
  });
}
