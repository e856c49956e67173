/** `npm run bench`: prints figures and ratios to targets; never part of the tests. */
import { benchDiagnosis } from './diagnosis-bench.js';

const OPTIONAL_BENCHES: Array<[string, string]> = [
  ['./slack-bench.js', 'benchSlack'],
  ['./watcher-bench.js', 'benchWatcher'],
];

async function main(): Promise<void> {
  await benchDiagnosis();
  for (const [module, fn] of OPTIONAL_BENCHES) {
    let loaded: Record<string, unknown>;
    try {
      loaded = (await import(module)) as Record<string, unknown>;
    } catch {
      continue;
    }
    console.log('');
    await (loaded[fn] as () => Promise<void>)();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
