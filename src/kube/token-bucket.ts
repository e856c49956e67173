/**
 * A token bucket (client-go's `flowcontrol` idea): `burst` requests may go at once, then `qps` a
 * second. `take()` reserves a token and resolves when it is due; waiters are served in order (a
 * reservation may take the balance below zero, and the next one waits for it to refill). A qps of
 * 0 or less means no limit.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly qps: number,
    readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = Math.max(1, burst);
    this.last = now();
  }

  get unlimited(): boolean {
    return !(this.qps > 0);
  }

  /** Milliseconds the next request would wait (0 when a token is ready). */
  delayMs(): number {
    if (this.unlimited) return 0;
    const tokens = this.refilled(this.now());
    return tokens >= 1 ? 0 : ((1 - tokens) * 1000) / this.qps;
  }

  /** Reserves a token; resolves when it may be spent. */
  take(): Promise<void> {
    if (this.unlimited) return Promise.resolve();
    const t = this.now();
    this.tokens = this.refilled(t) - 1;
    this.last = t;
    if (this.tokens >= 0) return Promise.resolve();
    const waitMs = (-this.tokens * 1000) / this.qps;
    return new Promise((resolve) => setTimeout(resolve, waitMs));
  }

  private refilled(t: number): number {
    return Math.min(Math.max(1, this.burst), this.tokens + ((t - this.last) * this.qps) / 1000);
  }
}
