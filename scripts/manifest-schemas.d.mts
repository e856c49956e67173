export interface SchemaProblem {
  /** "Kind namespace/name", or the label given to typeProblems(). */
  object: string;
  /** JSON path inside the object, e.g. spec.template.spec.containers[0].bogus ("" for the object). */
  path: string;
  message: string;
}
export interface TypedValue {
  label: string;
  /** Module whose types `type` names, e.g. "kubernetes-models/apps/v1/Deployment". */
  module: string;
  /** A type written against the namespace M: "M.IDeployment", "Known<M.Manifest>". */
  type: string;
  value: unknown;
}
export function modelModule(apiVersion: string, kind: string): string;
export function describeObject(o: { kind: string; metadata?: { name?: string; namespace?: string } }): string;
export function typeProblems(entries: TypedValue[], rounds?: number): SchemaProblem[];
export function schemaProblems(
  objects: Array<{ apiVersion: string; kind: string; metadata: { name: string; namespace?: string } }>,
): Promise<SchemaProblem[]>;
