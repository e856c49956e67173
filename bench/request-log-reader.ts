/**
 * Reads the JSON lines `isvc-doctor simulate --request-log FILE` appends (one per answered request),
 * from where the last read stopped.
 */
import { closeSync, openSync, readSync, fstatSync } from 'node:fs';

export interface LoggedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  verb: string;
  resource: string;
  namespace?: string;
  name?: string;
  status: number;
  /** Epoch ms: arrived. */
  at: number;
  /** Epoch ms: answered. */
  doneAt: number;
}

export class RequestLogReader {
  private offset = 0;
  private rest = '';
  readonly all: LoggedRequest[] = [];

  constructor(private readonly file: string) {}

  /** Everything logged since the last call. */
  readNew(): LoggedRequest[] {
    const fd = openSync(this.file, 'r');
    try {
      const size = fstatSync(fd).size;
      if (size <= this.offset) return [];
      const buffer = Buffer.alloc(size - this.offset);
      readSync(fd, buffer, 0, buffer.length, this.offset);
      this.offset = size;
      const lines = (this.rest + buffer.toString('utf8')).split('\n');
      this.rest = lines.pop() ?? '';
      const fresh = lines.filter(Boolean).map((l) => JSON.parse(l) as LoggedRequest);
      this.all.push(...fresh);
      return fresh;
    } finally {
      closeSync(fd);
    }
  }

  /** Requests that arrived at or after `sinceMs` (epoch), read up to now. */
  since(sinceMs: number): LoggedRequest[] {
    this.readNew();
    return this.all.filter((r) => r.at >= sinceMs);
  }

  /** Resolves once no request has been answered for `quietMs` (or after `maxMs`). */
  async quiet(quietMs: number, maxMs = 60_000): Promise<void> {
    const deadline = Date.now() + maxMs;
    let lastSeen = Date.now();
    while (Date.now() < deadline) {
      if (this.readNew().length > 0) lastSeen = Date.now();
      else if (Date.now() - lastSeen >= quietMs) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** What a client asked for a diagnosis: leader-election renewals and watch streams left out. */
export function diagnosisRequests(requests: LoggedRequest[]): LoggedRequest[] {
  return requests.filter(
    (r) => r.verb !== 'watch' && r.resource !== 'leases' && r.query.watch !== 'true' && r.query.watch !== '1',
  );
}
