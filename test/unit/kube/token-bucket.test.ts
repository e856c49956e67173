/** The token bucket behind `kubernetes.qps`/`burst`: a burst at once, then qps a second, in order; qps 0 is no limit. */
import { describe, expect, it } from '@jest/globals';
import { TokenBucket } from '../../../src/kube/token-bucket.js';

describe('TokenBucket', () => {
  it('lets a burst go at once, then makes each next request wait 1/qps', () => {
    let now = 0;
    const bucket = new TokenBucket(10, 3, () => now);
    for (let i = 0; i < 3; i += 1) {
      expect(bucket.delayMs()).toBe(0);
      void bucket.take();
    }
    expect(bucket.delayMs()).toBeCloseTo(100);
    void bucket.take(); // reserved: the balance goes below zero
    expect(bucket.delayMs()).toBeCloseTo(200);
    now = 200; // two tokens refilled: the reservation is paid, one is free
    expect(bucket.delayMs()).toBe(0);
  });

  it('refills up to the burst, not beyond', () => {
    let now = 0;
    const bucket = new TokenBucket(100, 2, () => now);
    void bucket.take();
    void bucket.take();
    now = 60_000;
    void bucket.take();
    void bucket.take();
    expect(bucket.delayMs()).toBeCloseTo(10);
  });

  it('does not limit with qps 0', async () => {
    const bucket = new TokenBucket(0, 1, () => 0);
    for (let i = 0; i < 100; i += 1) await bucket.take();
    expect(bucket.delayMs()).toBe(0);
  });
});
