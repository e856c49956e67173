/** Whether labels match a Kubernetes LabelSelector object (matchLabels and matchExpressions); an empty selector matches everything. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}

export function matchesLabelSelector(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  for (const [k, v] of Object.entries(selector?.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector?.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, e.key);
    const ok =
      e.operator === 'Exists'
        ? has
        : e.operator === 'DoesNotExist'
          ? !has
          : e.operator === 'In'
            ? has && (e.values ?? []).includes(labels[e.key]!)
            : e.operator === 'NotIn'
              ? !has || !(e.values ?? []).includes(labels[e.key]!)
              : false;
    if (!ok) return false;
  }
  return true;
}

/** A selector as one line ("control-plane DoesNotExist, app=x"). */
export function describeLabelSelector(selector: LabelSelector | undefined): string {
  const parts = [
    ...Object.entries(selector?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`),
    ...(selector?.matchExpressions ?? []).map(
      (e) => `${e.key} ${e.operator}${e.values?.length ? ` (${e.values.join(', ')})` : ''}`,
    ),
  ];
  return parts.length ? parts.join(', ') : '(everything)';
}
