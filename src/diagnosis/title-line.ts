/**
 * A finding's title as a report shows it: one line of at most 240 characters, without what
 * Kubernetes adds to a repeated event's message or the head of a ReplicaSet's refusal that the title
 * already says (the evidence keeps the whole message).
 */
import { cutLine } from '../logs/cut-line.js';
import { decidingSpan, focusLine } from '../logs/focus-line.js';

const TITLE_MAX = 240;

/** What Kubernetes adds to a repeated event's message, which says nothing about the failure. */
export const withoutRepeatNoise = (text: string) => text.replace(/\(combined from similar events\):\s*/g, '');

/**
 * A title quotes a ReplicaSet's refusal after saying what refuses the pods; the refusal's own head
 * (`Error creating: pods "<a pod name that never existed>" is forbidden: `) repeats that, so the
 * title keeps only the reason.
 */
const withoutRefusalHead = (title: string) =>
  title.replace(/(\bforbids? [^:]*: )Error creating: pods "[^"]*" is forbidden: /, '$1');

/** The title, its noise removed, as one line (oneLine). */
export function titleLine(title: string): string {
  return oneLine(withoutRefusalHead(withoutRepeatNoise(title)));
}

/**
 * The first line of a multi-line message, cut at its end while the part that decides (an error, a
 * status code, a refusal) fits before the cut. When it would not, the playbook's own words before
 * the first ": " stay whole and the message quoted after them is cut around its deciding part instead.
 */
function oneLine(text: string): string {
  const first =
    text
      .split(/\r?\n/)
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  if (first.length <= TITLE_MAX) return first;
  const span = decidingSpan(first);
  const colon = first.indexOf(': ');
  if (!span || span.start + 60 <= TITLE_MAX || colon <= 0 || colon > TITLE_MAX / 2) return cutLine(first, TITLE_MAX);
  return `${first.slice(0, colon)}: ${focusLine(first.slice(colon + 2), TITLE_MAX - colon - 2)}`;
}
