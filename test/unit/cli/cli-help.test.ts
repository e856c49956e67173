/** --version, `help COMMAND`, `COMMAND --help`, and the program's name when kubectl runs it as a plugin. */
import { readFileSync } from 'node:fs';
import { CLI_COMMANDS } from '../../../src/cli/cli-commands.js';
import { invokedAs } from '../../../src/cli/invoked-as.js';
import { main } from '../../../src/cli/main.js';
import { runCliMain } from '../../support/run-cli.mjs';

const run = (...args: string[]) => runCliMain(main, args);
const VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

it('prints its version with --version', async () => {
  expect(await run('--version')).toEqual({ code: 0, stdout: `isvc-doctor ${VERSION}\n`, stderr: '' });
});

it.each(CLI_COMMANDS.map((c) => c.name))(
  'prints the help of %s with `help NAME` and `NAME --help` / `-h`, exit 0',
  async (name) => {
    const usage = `usage: ${CLI_COMMANDS.find((c) => c.name === name)!.usage}\n`;
    const help = await run('help', name);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(usage);
    expect(help.stderr).toBe('');
    // anywhere among the arguments, even with ones that would be bad usage
    expect(await run(name, '--help')).toEqual(help);
    expect(await run(name, 'x', '--bogus', '-h')).toEqual(help);
  },
);

it('says what every command does in the overview', async () => {
  const { stdout } = await run('--help');
  for (const c of CLI_COMMANDS) expect(stdout).toMatch(new RegExp(`^ {2}${c.name} +\\S`, 'm'));
});

it("lists each flag's meaning in a command's help", async () => {
  const { stdout } = await run('help', 'status');
  expect(stdout).toMatch(/^ {2}-A, --all-namespaces\s+list every namespace$/m);
  expect(stdout).toMatch(/^ {2}-n, --namespace NAMESPACE\s+.*kubeconfig context's namespace/m);
});

it('answers `help` about an unknown command with exit 2 and the commands there are', async () => {
  const r = await run('help', 'frobnicate');
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toBe(
    `isvc-doctor: unknown command "frobnicate"; the commands: ${CLI_COMMANDS.map((c) => c.name).join(', ')}\n`,
  );
});

it('says "kubectl isvc-doctor" in its help when kubectl runs it as a plugin', async () => {
  const plugin = invokedAs('/usr/local/bin/kubectl-isvc_doctor', ['help', 'diagnose']);
  expect(plugin).toEqual({ program: 'kubectl isvc-doctor', args: ['help', 'diagnose'] });
  const r = await runCliMain(
    (args: string[], io: Parameters<typeof main>[1]) => main(args, io, { program: plugin.program }),
    plugin.args,
  );
  expect(r.stdout).toContain('usage: kubectl isvc-doctor diagnose NAME');
  const overview = await runCliMain(
    (args: string[], io: Parameters<typeof main>[1]) => main(args, io, { program: plugin.program }),
    ['--help'],
  );
  expect(overview.stdout).toContain('       kubectl isvc-doctor help COMMAND');
  expect(overview.stdout).not.toMatch(/usage: isvc-doctor/);
});

it('knows how it was called from the name it runs under', () => {
  expect(invokedAs('/app/dist/src/cli/isvc-doctor.js', ['status'])).toEqual({
    program: 'isvc-doctor',
    args: ['status'],
  });
  expect(invokedAs('/x/node_modules/.bin/isvc-doctor', [])).toEqual({ program: 'isvc-doctor', args: [] });
  expect(invokedAs('/x/node_modules/.bin/kubectl_complete-isvc_doctor', ['dia'])).toEqual({
    program: 'kubectl isvc-doctor',
    args: ['__complete', 'dia'],
  });
});
