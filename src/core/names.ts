/**
 * The one check of Kubernetes names the CLI and the bot make before asking the cluster anything:
 * InferenceService names and namespaces are DNS-1123 labels (Knative builds host names from them).
 */
import { z } from 'zod';

export const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Why `value` is not a valid DNS-1123 label (what = "InferenceService name", "namespace"), or null when it is. */
export function nameError(value: string, what: string): string | null {
  if (value.length === 0) return `${what} is empty`;
  if (value.length > 63 || !DNS1123_LABEL.test(value)) {
    return `"${value.slice(0, 80)}" is not a valid ${what}: use lower-case letters, digits and "-", starting and ending with a letter or digit, at most 63 characters.`;
  }
  return null;
}

/** The same rule as a schema, for job data and config. */
export const dns1123Label = z.string().max(63).regex(DNS1123_LABEL, 'not a DNS-1123 name');
