/** Waits for `work` at most `ms`: resolves to true when it settled in time, false when the time ran out (the work goes on unobserved). */
export function settledWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), Math.max(0, ms));
      timer.unref?.();
    }),
  ]).finally(() => clearTimeout(timer));
}
