/** The CLI's subcommand registry: every *-command.ts file is registered, and --help lists every registered command. */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import { CLI_COMMANDS } from '../../../src/cli/cli-commands.js';
import { main } from '../../../src/cli/main.js';

describe('CLI command registry', () => {
  it('registers every command file', () => {
    const files = readdirSync(path.resolve('src/cli'))
      .filter((f) => f.endsWith('-command.ts'))
      .map((f) => f.replace(/-command\.ts$/, ''));
    expect(CLI_COMMANDS.map((c) => c.name).sort()).toEqual(files.sort());
  });

  it('prints every command in --help', async () => {
    const stdout = new PassThrough();
    const chunks: Buffer[] = [];
    stdout.on('data', (b: Buffer) => chunks.push(b));
    expect(await main(['--help'], { stdout, stderr: new PassThrough() })).toBe(0);
    const help = Buffer.concat(chunks).toString();
    for (const c of CLI_COMMANDS) expect(help).toContain(`usage: ${c.usage}`);
  });
});
