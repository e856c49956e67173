/** Waits for a condition (an event the test cannot subscribe to), polling; fails naming what it waited for. */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  ms = 20_000,
  pollMs = 20,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
