/** A clock tests move forward instead of sleeping: real time plus the time they skipped. */
export interface TestClock {
  now(): number;
  advance(ms: number): void;
}

export function testClock(): TestClock {
  let skipped = 0;
  return {
    now: () => Date.now() + skipped,
    advance: (ms) => {
      skipped += ms;
    },
  };
}
