import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** A command's flags and positionals (strict: an unknown flag is a UsageError naming it, then the usage line). */
export function parseFlags<O extends Options>(argv: string[], options: O, usage: string) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, strict: true, options });
  } catch (error) {
    // Node's parser adds advice on positionals that start with '-' (no name here does): its first sentence is the problem
    const first = (error as Error).message.replace(/\. To specify a positional argument [^\n]*/, '').split('\n')[0];
    throw new UsageError(`${first}\n${usage}`);
  }
}
