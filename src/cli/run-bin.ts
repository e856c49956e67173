/**
 * What the bin does with a `main` once it has one: runs it with the words it was called with (see
 * invoked-as.ts) and leaves the exit status to Node's natural exit.
 */
import { invokedAs } from './invoked-as.js';
import type { main as mainFunction } from './main.js';

export type Main = typeof mainFunction;

export function runBin(load: (args: string[]) => Promise<Main>): void {
  const { program, args } = invokedAs(process.argv[1], process.argv.slice(2));
  load(args)
    .then((main) => main(args, undefined, { program }))
    .then(
      (code) => {
        process.exitCode = code;
        // a completion answers at once, even while a cluster read it gave up on is still pending
        if (args[0] === '__complete') process.stdout.write('', () => process.exit(code));
      },
      () => {
        process.exitCode = 4;
      },
    );
}
