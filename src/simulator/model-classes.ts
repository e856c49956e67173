/**
 * client-node's generated model classes by name (V1Pod, CoreV1Event, …), for the simulator's OpenAPI
 * schemas. client-node's ObjectSerializer makes an instance of the class it knows by a name; its
 * module is imported by name here, so that a bundler keeps no namespace object of the ~700 model
 * modules (it would build one at every start of the bundle).
 */
import { ObjectSerializer } from '@kubernetes/client-node/dist/gen/models/ObjectSerializer.js';

export interface AttributeType {
  baseName: string;
  type: string;
  format: string;
}

export interface ModelClass {
  getAttributeTypeMap(): AttributeType[];
}

/** The model class client-node has for `name`; undefined for a name it has none for (a primitive, an enum, a custom resource). */
export function modelClass(name: string): ModelClass | undefined {
  const made: unknown = ObjectSerializer.deserialize({}, name, '');
  const maker = (made as { constructor?: Partial<ModelClass> } | null)?.constructor;
  return typeof maker?.getAttributeTypeMap === 'function' ? (maker as ModelClass) : undefined;
}
