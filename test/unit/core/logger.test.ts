/** The JSON logger: LOG_LEVEL drops the levels below it; each line is one JSON object. */
import { createLogger, type LogLevel } from '../../../src/core/logger.js';

function levelsWritten(level: LogLevel | undefined): string[] {
  const lines: string[] = [];
  const logger = createLogger({ ...(level ? { level } : {}), write: (l) => void lines.push(l) });
  logger.debug('d');
  logger.info('i');
  logger.warn('w');
  logger.error('e', { code: 'X' });
  return lines.map((l) => (JSON.parse(l) as { level: string }).level);
}

it.each([
  [undefined, ['info', 'warn', 'error']],
  ['debug', ['debug', 'info', 'warn', 'error']],
  ['info', ['info', 'warn', 'error']],
  ['warn', ['warn', 'error']],
  ['error', ['error']],
] as const)('LOG_LEVEL %s writes %j', (level, expected) => {
  expect(levelsWritten(level)).toEqual(expected);
});

it('writes time, level, msg, then the fields', () => {
  const lines: string[] = [];
  createLogger({ write: (l) => void lines.push(l) }).warn('slow', { ms: 12 });
  expect(Object.keys(JSON.parse(lines[0]!) as object)).toEqual(['time', 'level', 'msg', 'ms']);
});
