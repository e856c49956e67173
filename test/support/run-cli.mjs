/** Runs the CLI's `main(argv, io)` in this process and returns its exit code and what it wrote. */
import { PassThrough } from 'node:stream';

export async function runCliMain(main, args) {
  const [stdout, stderr] = [new PassThrough(), new PassThrough()];
  const out = [];
  const err = [];
  stdout.on('data', (b) => out.push(b));
  stderr.on('data', (b) => err.push(b));
  const code = await main(args, { stdout, stderr });
  return { code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() };
}
