/** The bot's logger: one line per message on stderr, never a token (callers pass messages, not configs). */
export interface BotLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export function createLogger(options: { quiet?: boolean } = {}): BotLogger {
  const write = (level: string) => (message: string) => {
    if (options.quiet && level !== 'error') return;
    process.stderr.write(`${new Date().toISOString()} ${level} ${message}\n`);
  };
  return { info: write('info'), warn: write('warn'), error: write('error') };
}

export const silentLogger: BotLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
