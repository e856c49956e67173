/**
 * Fills a signature's title / next / note template: {name}, {namespace}, {component}, {pod},
 * {container}, {storageUri}, {runtime}, {modelFormat}, {image}, {knativeNamespace}, {node} (the
 * pod's node), {gpus} (the GPUs its container is allocated), {serviceAccount}
 * (the component's, or default), {sourcePod} / {sourceNamespace} (the pod whose lines matched),
 * {field:KEY} (where KEY of the component lives in this service's spec, e.g.
 * spec.predictor.model.storageUri), {match:N} / {match:NAME} (a group of the pattern) and
 * {len:N} / {len:NAME} (how many characters that group holds, e.g. a host label's length).
 */
export const TEMPLATE_PLACEHOLDERS = [
  'name',
  'namespace',
  'component',
  'pod',
  'container',
  'storageUri',
  'runtime',
  'modelFormat',
  'image',
  'knativeNamespace',
  'node',
  'gpus',
  'serviceAccount',
  'sourcePod',
  'sourceNamespace',
  'field:',
  'match:',
  'len:',
] as const;

export interface TemplateValues {
  values: Partial<Record<string, string>>;
  /** Where a field of the component lives in the spec. */
  field(key: string): string;
  match?: RegExpExecArray | null;
}

const PLACEHOLDER = /\{([a-zA-Z]+(?::[A-Za-z0-9_]+)?)\}/g;

export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

export function fillTemplate(template: string, t: TemplateValues): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    if (name.startsWith('field:')) return t.field(name.slice('field:'.length));
    if (name.startsWith('match:') || name.startsWith('len:')) {
      const key = name.slice(name.indexOf(':') + 1);
      // a group that did not take part in the match is empty
      const group = (/^\d+$/.test(key) ? t.match?.[Number(key)] : t.match?.groups?.[key]) ?? '';
      return name.startsWith('len:') ? String(group.length) : group;
    }
    return t.values[name] ?? whole;
  });
}
