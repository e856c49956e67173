/**
 * `isvc-doctor playground [--port N] [--snapshot DIR ...]`: the real bot, a simulated cluster and a
 * local stand-in for Slack, in a web page. Prints `playground: http://127.0.0.1:PORT` once the page
 * answers; runs until SIGINT/SIGTERM/SIGHUP, then stops everything it started, the bot first. A child
 * that dies meanwhile is reported on stderr and on the page.
 */
import { parseArgs } from 'node:util';
import { SnapshotError } from '../snapshot/load-snapshot.js';
import { RedisMissingError } from '../playground/private-redis.js';
import { startPlayground, type RunningPlayground } from '../playground/playground.js';

const USAGE = 'usage: isvc-doctor playground [--port N] [--snapshot DIR ...]';

export async function runPlaygroundCommand(argv: string[]): Promise<number> {
  let flags: { port?: number; snapshots: string[] };
  try {
    flags = parseFlags(argv);
  } catch (error) {
    if ((error as Error).message === 'help') {
      process.stdout.write(
        `${USAGE}\n(default port 8080, or any free one when 8080 is taken; --port 0: any free port)\n`,
      );
      return 0;
    }
    process.stderr.write(`isvc-doctor playground: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  let playground: RunningPlayground;
  try {
    playground = await startPlayground({
      ...(flags.port !== undefined ? { port: flags.port } : {}),
      snapshots: flags.snapshots,
      log: (line) => void process.stderr.write(`${line}\n`),
    });
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    process.stderr.write(`isvc-doctor playground: ${message}\n`);
    return error instanceof SnapshotError || error instanceof RedisMissingError ? 2 : 1;
  }
  process.stdout.write(`playground: ${playground.url}\n`);
  void playground.crashed.then((why) =>
    process.stderr.write(
      `isvc-doctor playground: ${why}; the page shows it too. Ctrl-C stops the rest; start again to get it back\n`,
    ),
  );
  await new Promise<void>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => resolve());
  });
  await playground.close();
  return 0;
}

function parseFlags(argv: string[]): { port?: number; snapshots: string[] } {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      snapshot: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) throw new Error('help');
  if (values.port === undefined) return { snapshots: values.snapshot ?? [] };
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65535) throw new Error('--port must be a whole number from 0 to 65535');
  return { port, snapshots: values.snapshot ?? [] };
}
