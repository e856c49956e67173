/**
 * Slack's date formatting tokens (`<!date^1700000000^{date_short_pretty} at {time}|fallback>`),
 * rendered in the reader's local time: {date_num} {date} {date_short} {date_long}, the `_pretty`
 * forms (today / yesterday / tomorrow), {time} {time_secs} and {ago}.
 */
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${n % 10 > 3 ? 'th' : suffix}`;
}

function dayDiff(date: Date, now: Date): number {
  const start = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  return Math.round((start(date) - start(now)) / 86_400_000);
}

function pretty(date: Date, now: Date, otherwise: string): string {
  const diff = dayDiff(date, now);
  return diff === 0 ? 'today' : diff === -1 ? 'yesterday' : diff === 1 ? 'tomorrow' : otherwise;
}

function time(date: Date, seconds: boolean): string {
  const h = date.getHours() % 12 || 12;
  const mm = String(date.getMinutes()).padStart(2, '0');
  const ss = seconds ? `:${String(date.getSeconds()).padStart(2, '0')}` : '';
  return `${h}:${mm}${ss} ${date.getHours() < 12 ? 'AM' : 'PM'}`;
}

/** "3 minutes ago", "in 2 hours", "a few seconds ago". */
export function ago(date: Date, now: Date): string {
  const seconds = Math.round((now.getTime() - date.getTime()) / 1000);
  const abs = Math.abs(seconds);
  const units: Array<[number, string]> = [
    [31_536_000, 'year'],
    [2_592_000, 'month'],
    [86_400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  if (abs < 45) return seconds >= 0 ? 'a few seconds ago' : 'in a few seconds';
  const [size, unit] = units.find(([s]) => abs >= s) ?? [60, 'minute'];
  const n = Math.max(1, Math.round(abs / size));
  const phrase = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return seconds >= 0 ? `${phrase} ago` : `in ${phrase}`;
}

export function formatDateToken(epochSeconds: number, format: string, now = new Date()): string {
  const date = new Date(epochSeconds * 1000);
  const y = date.getFullYear();
  const m = date.getMonth();
  const d = date.getDate();
  const tokens: Record<string, () => string> = {
    date_num: () => `${y}-${String(m + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`,
    date: () => `${MONTHS[m]} ${ordinal(d)}, ${y}`,
    date_short: () => `${MONTHS[m]!.slice(0, 3)} ${d}, ${y}`,
    date_long: () => `${DAYS[date.getDay()]}, ${MONTHS[m]} ${ordinal(d)}, ${y}`,
    date_pretty: () => pretty(date, now, tokens.date!()),
    date_short_pretty: () => pretty(date, now, tokens.date_short!()),
    date_long_pretty: () => pretty(date, now, tokens.date_long!()),
    time: () => time(date, false),
    time_secs: () => time(date, true),
    ago: () => ago(date, now),
  };
  return format.replace(/\{(\w+)\}/g, (all, name: string) => tokens[name]?.() ?? all);
}
