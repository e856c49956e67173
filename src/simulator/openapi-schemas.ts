/**
 * OpenAPI schemas of the kinds a group version serves, for /openapi/v3 (`kubectl explain`,
 * kubectl's detection of server-side field validation). Built-in kinds get their structure from
 * @kubernetes/client-node's generated models (loaded on the first OpenAPI request only); a
 * custom resource gets what a CRD without a structural schema publishes: apiVersion, kind,
 * metadata, and spec / status that preserve unknown fields. No descriptions: `kubectl explain`
 * shows the fields and types, as against a server whose CRDs carry no documentation.
 */
import type { ModelClass } from './model-classes.js';
import type { ResourceType } from './resource-registry.js';

type Schema = Record<string, unknown>;
/** client-node's model class of a name (model-classes.ts). */
type Models = (name: string) => ModelClass | undefined;

const REF = '#/components/schemas/';

let modelsPromise: Promise<Models> | undefined;

async function models(): Promise<Models> {
  modelsPromise ??= import('./model-classes.js').then((m) => m.modelClass);
  return modelsPromise;
}

/** The schema name of a kind (its client-node model class where one exists). */
function modelName(type: ResourceType, all: Models): string | undefined {
  const version = type.version.charAt(0).toUpperCase() + type.version.slice(1);
  const candidates =
    type.kind === 'Event' ? [type.group === '' ? 'CoreV1Event' : 'EventsV1Event'] : [`${version}${type.kind}`];
  return candidates.find((name) => all(name) !== undefined);
}

/** Schemas for the given kinds (built-ins from client-node's models) and every model they refer to. */
export async function kindSchemas(types: readonly ResourceType[]): Promise<Record<string, Schema>> {
  const all = await models();
  const schemas: Record<string, Schema> = {};
  for (const type of types) {
    const gvk = { 'x-kubernetes-group-version-kind': [{ group: type.group, version: type.version, kind: type.kind }] };
    const name = type.family.conversion === 'separate' ? modelName(type, all) : undefined;
    if (name) {
      addModel(name, all, schemas);
      schemas[definitionName(name)] = { ...schemas[definitionName(name)], ...gvk };
    } else {
      addModel('V1ObjectMeta', all, schemas);
      schemas[`${type.group || 'core'}.${type.version}.${type.kind}`] = customResourceSchema(gvk);
    }
  }
  return schemas;
}

function customResourceSchema(gvk: Schema): Schema {
  const open = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  return {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { $ref: `${REF}${definitionName('V1ObjectMeta')}` },
      spec: open,
      status: open,
    },
    ...gvk,
  };
}

/**
 * Schema names in the API server's dotted style, from client-node's class names
 * ("V1ContainerPort" → io.k8s.api.core.v1.ContainerPort, "EventsV1Event" → io.k8s.api.events.v1.Event),
 * so that kubectl explain prints <ContainerPort>.
 */
export function definitionName(model: string): string {
  const match = /^([A-Z][a-z]+)?(V\d+(?:alpha\d+|beta\d+)?)([A-Z].*)$/.exec(model);
  if (!match) return model;
  return `io.k8s.api.${(match[1] ?? 'core').toLowerCase()}.${match[2]!.toLowerCase()}.${match[3]}`;
}

function addModel(model: string, all: Models, schemas: Record<string, Schema>): void {
  const name = definitionName(model);
  if (schemas[name]) return;
  const attributes = all(model)?.getAttributeTypeMap() ?? [];
  const properties: Record<string, Schema> = {};
  schemas[name] = { type: 'object', properties };
  for (const a of attributes) properties[a.baseName] = schemaOf(a.type, a.format, all, schemas);
}

function schemaOf(type: string, format: string, all: Models, schemas: Record<string, Schema>): Schema {
  const withFormat = (s: Schema): Schema => (format ? { ...s, format } : s);
  if (type === 'string') return withFormat({ type: 'string' });
  if (type === 'number') return withFormat({ type: format.startsWith('int') ? 'integer' : 'number' });
  if (type === 'boolean') return { type: 'boolean' };
  if (type === 'Date') return { type: 'string', format: 'date-time' };
  if (type === 'IntOrString')
    return { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] };
  const array = /^Array<(.+)>$/.exec(type);
  if (array) return { type: 'array', items: schemaOf(array[1]!, '', all, schemas) };
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (map) return { type: 'object', additionalProperties: schemaOf(map[1]!, '', all, schemas) };
  if (all(type)) {
    addModel(type, all, schemas);
    return { $ref: `${REF}${definitionName(type)}` };
  }
  return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
}
