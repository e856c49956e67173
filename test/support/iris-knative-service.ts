/**
 * The Knative Service KServe makes for the `iris` sklearn InferenceService of namespace `ml`
 * (`iris-predictor`, labelled with the service and its component), with the status a test gives it:
 * the fixture the playbook tests beside their playbooks share.
 */
export function irisKnativeService(status: Record<string, unknown>) {
  return {
    apiVersion: 'serving.knative.dev/v1',
    kind: 'Service',
    metadata: {
      name: 'iris-predictor',
      namespace: 'ml',
      labels: { 'serving.kserve.io/inferenceservice': 'iris', component: 'predictor' },
    },
    spec: { template: { spec: { containers: [{ name: 'kserve-container', image: 'kserve/sklearnserver:v0.14.1' }] } } },
    status,
  };
}
