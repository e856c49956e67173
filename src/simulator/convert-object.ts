/**
 * An object of a resource family as served at one of its versions: unchanged but for apiVersion
 * when the versions share a schema, converted as the product's conversion webhook does otherwise.
 * A conversion the webhook refuses is a 500 InternalError, as the API server reports it.
 */
import { kfservingToV1alpha2, kfservingToV1beta1 } from './api-catalog/kfserving-conversion.js';
import { ConversionError, knativeConvert } from './api-catalog/knative-conversion.js';
import { ApiError } from './api-error.js';
import type { KubeObject } from './kube-object.js';
import type { ResourceFamily } from './resource-registry.js';

export function convertObject(family: ResourceFamily, object: KubeObject, toVersion: string): KubeObject {
  const apiVersion = family.group ? `${family.group}/${toVersion}` : toVersion;
  if (object.apiVersion === apiVersion) return object;
  try {
    switch (family.conversion) {
      case 'kfserving-inferenceservice':
        return toVersion === 'v1alpha2' ? kfservingToV1alpha2(object) : kfservingToV1beta1(object);
      case 'knative-serving':
        return knativeConvert(object, toVersion);
      default:
        return { ...object, apiVersion };
    }
  } catch (error) {
    if (!(error instanceof ConversionError)) throw error;
    throw new ApiError(
      500,
      'InternalError',
      `Internal error occurred: conversion webhook for ${object.apiVersion}, Kind=${family.kind} failed: ${error.message}`,
    );
  }
}
