/** Kubernetes LabelSelector objects (matchLabels and matchExpressions): matching labels, and saying why not. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}

/** Whether labels match the selector; an empty selector matches everything. */
export function matchesLabelSelector(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  return unmetRequirements(selector, labels).length === 0;
}

/** One requirement of a selector that labels fail, with the value the labels have for its key (undefined: absent). */
export interface UnmetRequirement {
  key: string;
  /** `Equals` for a matchLabels entry; otherwise the matchExpressions operator. */
  operator: 'Equals' | 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | string;
  values: string[];
  actual: string | undefined;
}

/** The requirements of a selector that labels fail (none: the selector matches). */
export function unmetRequirements(
  selector: LabelSelector | undefined,
  labels: Record<string, string>,
): UnmetRequirement[] {
  const actual = (key: string) => (Object.hasOwn(labels, key) ? labels[key] : undefined);
  const unmet: UnmetRequirement[] = [];
  for (const [key, v] of Object.entries(selector?.matchLabels ?? {}))
    if (actual(key) !== v) unmet.push({ key, operator: 'Equals', values: [v], actual: actual(key) });
  for (const e of selector?.matchExpressions ?? []) {
    const value = actual(e.key);
    const values = e.values ?? [];
    const ok =
      e.operator === 'Exists'
        ? value !== undefined
        : e.operator === 'DoesNotExist'
          ? value === undefined
          : e.operator === 'In'
            ? value !== undefined && values.includes(value)
            : e.operator === 'NotIn'
              ? value === undefined || !values.includes(value)
              : false;
    if (!ok) unmet.push({ key: e.key, operator: e.operator, values, actual: value });
  }
  return unmet;
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
