/**
 * An error message about the Kubernetes API made fit for a Slack thread: the API server's URL, its
 * address and port, and internal host names are the cluster's business, not the channel's (they
 * stay in the bot's own log). What failed and how (ECONNREFUSED, a timeout, an HTTP status) stays.
 */
const RULES: Array<[RegExp, string]> = [
  [/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>()]+/gi, '[the API server]'],
  [/\b(ENOTFOUND|EAI_AGAIN)\s+\S+/g, '$1 [host]'],
  [/\[[0-9a-f:.]+\](?::\d+)?/gi, '[address]'],
  [/\b\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?\b/g, '[address]'],
  [/\b[a-z0-9-]+(?:\.[a-z0-9-]+)+:\d{1,5}\b/gi, '[address]'],
  [
    /\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:svc|local|internal|lan|corp|cluster\.local|amazonaws\.com|azmk8s\.io|gke\.goog|googleapis\.com)\b/gi,
    '[host]',
  ],
];

export function publicReason(message: string, max = 300): string {
  let out = message;
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement);
  return out.length > max ? `${out.slice(0, max - 1)}…` : out;
}
