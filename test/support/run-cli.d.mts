export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}
export function runCliMain(
  main: (argv: string[], io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }) => Promise<number>,
  args: string[],
): Promise<CliRun>;
