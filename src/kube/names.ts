/** Kubernetes name rules the CLI and the bot check before asking the cluster anything. */
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Why `value` is not a valid DNS-1123 label (InferenceService names and namespaces), or null when it is. */
export function dns1123LabelError(value: string, what: string): string | null {
  if (value.length === 0) return `${what} is empty`;
  if (value.length > 63) return `${what} "${value.slice(0, 70)}" is longer than 63 characters`;
  if (!DNS1123_LABEL.test(value)) {
    return `${what} "${value}" is not a valid name: use lower case letters, digits and '-', starting and ending with a letter or digit`;
  }
  return null;
}
