/**
 * What all request bodies being read at once may hold together, counted per byte received (never
 * per declared Content-Length: a header costs nothing until its bytes arrive). A body that has been
 * arriving for longer than `slowAfterMs` is slow (Slack sends its small bodies at once); when a new
 * byte does not fit, the slowest such bodies are evicted (the oldest first) to make room, so slow
 * unsigned clients hold only capacity that no prompt request needs. Only when no slow body is left
 * to evict is the new byte refused. The last `reservedForSmall` bytes go only to bodies still under
 * `smallBody` bytes (Slack's are a few KiB): large bodies arriving together cannot take them all.
 */
export interface BodyBudgetOptions {
  /** Bytes all bodies being read may hold together. */
  limit: number;
  /** A body still arriving after this long may be evicted for a newer one. */
  slowAfterMs: number;
  /** A body is small while it holds at most this many bytes. */
  smallBody: number;
  /** Bytes of the limit that only small bodies may take. */
  reservedForSmall: number;
  now?: () => number;
}

/** One body being read: what it holds of the budget. */
export interface BodyClaim {
  /** Holds `bytes` more; false when they do not fit even after evicting the slow bodies. */
  take(bytes: number): boolean;
  /** The body is read (or given up): its bytes go back to the budget. Idempotent. */
  release(): void;
}

interface Reader {
  startedAt: number;
  held: number;
  evict(): void;
}

export class BodyBudget {
  readonly limit: number;
  private heldBytes = 0;
  /** In the order they started: the first is the oldest. */
  private readonly readers = new Set<Reader>();
  private readonly slowAfterMs: number;
  private readonly smallBody: number;
  private readonly reservedForSmall: number;
  private readonly now: () => number;

  constructor(options: BodyBudgetOptions) {
    this.limit = options.limit;
    this.slowAfterMs = options.slowAfterMs;
    this.smallBody = options.smallBody;
    this.reservedForSmall = options.reservedForSmall;
    this.now = options.now ?? Date.now;
  }

  /** Bytes held by all bodies being read. */
  get held(): number {
    return this.heldBytes;
  }

  /** Bodies being read. */
  get reading(): number {
    return this.readers.size;
  }

  /** Starts a body; `onEvict` runs (once) if the budget takes its bytes back for a newer body. */
  open(onEvict: () => void): BodyClaim {
    const reader: Reader = { startedAt: this.now(), held: 0, evict: onEvict };
    this.readers.add(reader);
    const release = () => {
      if (!this.readers.delete(reader)) return;
      this.heldBytes -= reader.held;
      reader.held = 0;
    };
    return {
      take: (bytes) => {
        if (!this.readers.has(reader)) return false;
        if (!this.fits(bytes, reader)) return false;
        reader.held += bytes;
        this.heldBytes += bytes;
        return true;
      },
      release,
    };
  }

  /** Room for `bytes`, evicting slow bodies other than `taker`, the oldest first. */
  private fits(bytes: number, taker: Reader): boolean {
    const ceiling = taker.held + bytes <= this.smallBody ? this.limit : this.limit - this.reservedForSmall;
    if (this.heldBytes + bytes <= ceiling) return true;
    const slowSince = this.now() - this.slowAfterMs;
    for (const reader of [...this.readers]) {
      if (reader.startedAt > slowSince) break; // the rest started later still
      if (reader === taker || reader.held === 0) continue;
      this.heldBytes -= reader.held;
      reader.held = 0;
      this.readers.delete(reader);
      reader.evict();
      if (this.heldBytes + bytes <= ceiling) return true;
    }
    return false;
  }
}
