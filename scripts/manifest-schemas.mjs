// Checks rendered Kubernetes objects against the schemas generated from the Kubernetes OpenAPI spec
// (kubernetes-models 4.5: Kubernetes 1.33; @kubernetes-models/prometheus-operator for the
// monitoring.coreos.com CRDs, PodMonitor and PrometheusRule among them), in two ways:
// - the models' JSON-schema validators: types, required fields, enums, formats;
// - the models' TypeScript interfaces: each object is compiled as a literal of its interface, so a
//   field the API does not know is an error (the JSON schemas have no additionalProperties: false
//   and let it through, as `kubectl apply` would silently drop it).
// A kind with no schema is an error too. typeProblems() also serves other JSON documents with a
// published TypeScript type (the Slack app manifests against @slack/web-api's Manifest).
// Plain JavaScript (with manifest-schemas.d.mts) so that CI runs it with node and the tests import it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The in-memory source compiled by typeProblems(); inside the repository so that node_modules resolves. */
const VIRTUAL = path.join(repo, 'scripts', '__manifest-typecheck__.mts');
/** Drops an index signature (`extends Record<string, unknown>`), so unknown top-level keys are errors too. */
const PRELUDE =
  'type Known<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };\n';

const MODEL_PACKAGES = { 'monitoring.coreos.com': '@kubernetes-models/prometheus-operator' };

/** The package subpath holding the model of apiVersion/kind, e.g. kubernetes-models/apps/v1/Deployment. */
export function modelModule(apiVersion, kind) {
  const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
  return `${MODEL_PACKAGES[group] ?? 'kubernetes-models'}/${apiVersion}/${kind}`;
}

export const describeObject = (o) =>
  `${o.kind} ${o.metadata?.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata?.name}`;

async function loadModel(apiVersion, kind) {
  try {
    const mod = await import(modelModule(apiVersion, kind));
    return typeof mod[kind] === 'function' ? mod[kind] : null;
  } catch {
    return null;
  }
}

/** JSON-schema problems of each object, and objects whose kind has no schema. */
async function validatorProblems(objects) {
  const problems = [];
  for (const o of objects) {
    const Model = await loadModel(o.apiVersion, o.kind);
    if (!Model) {
      problems.push({ object: describeObject(o), path: '', message: `no schema for ${o.apiVersion} ${o.kind}` });
      continue;
    }
    try {
      new Model(o).validate();
    } catch (error) {
      for (const e of error.errors ?? [{ instancePath: '', message: error.message }])
        problems.push({
          object: describeObject(o),
          path: e.instancePath.replace(/^\//, '').replaceAll('/', '.'),
          message: e.message,
        });
    }
  }
  return problems;
}

/** The deepest node of `node` that contains `pos`. */
function nodeAt(node, pos) {
  let found = node;
  ts.forEachChild(node, (child) => {
    if (child.getStart() <= pos && pos < child.getEnd()) found = nodeAt(child, pos);
  });
  return found;
}

/** The JSON path of a node inside an object literal, as segments (property names, array indices). */
function jsonPath(node) {
  const parts = [];
  for (let n = node; n && !ts.isVariableDeclaration(n); n = n.parent) {
    if (ts.isPropertyAssignment(n)) parts.unshift(n.name.text ?? n.name.getText());
    else if (n.parent && ts.isArrayLiteralExpression(n.parent)) parts.unshift(n.parent.elements.indexOf(n));
  }
  return parts;
}

const pathText = (parts) =>
  parts
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`))
    .join('')
    .replace(/^\./, '');

/** TypeScript's excess-property errors (2353, 2561 with a suggestion) say "unknown field". */
function describeDiagnostic(d) {
  const message = ts.flattenDiagnosticMessageText(d.messageText, ' ');
  if (d.code !== 2353 && d.code !== 2561) return { message, unknownField: false };
  const field = /'"?([^'"]+)"?' does not exist/.exec(message)?.[1] ?? '?';
  const suggestion = /Did you mean to write '([^']+)'/.exec(message)?.[1];
  return {
    message: `unknown field '${field}'${suggestion ? ` (did you mean '${suggestion}'?)` : ''}`,
    unknownField: true,
  };
}

/** One compilation of the values as literals of their types: the diagnostics by entry and path. */
function compileOnce(entries) {
  let text = PRELUDE;
  for (const [i, e] of entries.entries()) text += `import type * as M${i} from '${e.module}';\n`;
  const spans = entries.map((e, i) => {
    const start = text.length;
    text += `export const v${i}: ${e.type.replace(/\bM\./g, `M${i}.`)} = ${JSON.stringify(e.value, null, 1)};\n`;
    return { start, end: text.length, index: i };
  });
  const options = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, language, ...rest) =>
    name === VIRTUAL
      ? ts.createSourceFile(name, text, language, true)
      : getSourceFile.call(host, name, language, ...rest);
  host.fileExists = (name) => name === VIRTUAL || fileExists.call(host, name);
  host.readFile = (name) => (name === VIRTUAL ? text : readFile.call(host, name));
  const program = ts.createProgram([VIRTUAL], options, host);
  const source = program.getSourceFile(VIRTUAL);
  return ts.getPreEmitDiagnostics(program, source).map((d) => {
    const span = d.start === undefined ? undefined : spans.find((s) => s.start <= d.start && d.start < s.end);
    return {
      index: span?.index ?? -1,
      code: d.code,
      path: span ? jsonPath(nodeAt(source, d.start)) : [],
      ...describeDiagnostic(d),
    };
  });
}

function deleteAt(value, parts) {
  let target = value;
  for (const p of parts.slice(0, -1)) target = target?.[p];
  if (target && typeof target === 'object') delete target[parts[parts.length - 1]];
}

/** TS2322: a property's value has the wrong type. */
const WRONG_TYPE = 2322;

/**
 * Compiles each value as a literal of `type` from `module` (written against the namespace `M`, e.g.
 * "M.IDeployment" or "Known<M.Manifest>") and returns the compiler's errors by label and JSON path.
 * TypeScript reports one unknown field per object literal, and a wrong type can hide the unknown
 * fields around it: the properties reported are removed and the values compiled again (a few
 * rounds), so that every unknown field is listed.
 */
export function typeProblems(entries, rounds = 5) {
  const values = entries.map((e) => structuredClone(e.value));
  const problems = [];
  const seen = new Set();
  for (let round = 0; round < rounds; round += 1) {
    const found = compileOnce(entries.map((e, i) => ({ ...e, value: values[i] })));
    for (const d of found) {
      const problem = { object: entries[d.index]?.label ?? '(type check)', path: pathText(d.path), message: d.message };
      const key = JSON.stringify(problem);
      if ((round === 0 || d.unknownField) && !seen.has(key)) problems.push(problem);
      seen.add(key);
    }
    const removable = found.filter(
      (d) => d.index >= 0 && d.path.length > 0 && (d.unknownField || d.code === WRONG_TYPE),
    );
    if (removable.length === 0) break;
    for (const d of removable) deleteAt(values[d.index], d.path);
  }
  return problems;
}

/** Every problem of the objects against their schemas: validators, unknown fields, unknown kinds. */
export async function schemaProblems(objects) {
  const problems = await validatorProblems(objects);
  const known = [];
  for (const o of objects) if (await loadModel(o.apiVersion, o.kind)) known.push(o);
  problems.push(
    ...typeProblems(
      known.map((o) => ({
        label: describeObject(o),
        module: modelModule(o.apiVersion, o.kind),
        type: `M.I${o.kind}`,
        value: o,
      })),
    ),
  );
  return problems;
}
