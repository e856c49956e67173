/**
 * Which runs of the bundled bin start from the code-cached bundle (bundled-bin.ts): the commands
 * that read a cluster and end, whose start-up is most of their time, unless only their help is
 * asked for. Help, serve, simulate and completion keep the lazily loaded ES modules.
 */
export const CODE_CACHED_COMMANDS: readonly string[] = ['diagnose', 'status', 'signatures'];

export function usesCodeCache(args: readonly string[]): boolean {
  return CODE_CACHED_COMMANDS.includes(args[0] ?? '') && !args.some((a) => a === '-h' || a === '--help');
}
