import { publicReason } from '../../../src/queue/public-reason.js';

describe('publicReason (CLUSTER_UNREACHABLE in a thread)', () => {
  it.each([
    [
      'cannot reach the Kubernetes API (get inferenceservice default/x): request to https://10.96.0.1:443/apis/serving.kserve.io/v1beta1/namespaces/default/inferenceservices/x failed, reason: connect ECONNREFUSED 10.96.0.1:443',
      ['10.96.0.1', 'https://', ':443'],
    ],
    [
      'cannot reach the Kubernetes API (list pods): getaddrinfo ENOTFOUND api.prod-cluster.internal',
      ['api.prod-cluster.internal'],
    ],
    ['connect ETIMEDOUT [fd00::1]:6443', ['fd00::1', '6443']],
    ['request to https://ABCDEF.gr7.eu-west-1.eks.amazonaws.com/api failed', ['eks.amazonaws.com', 'ABCDEF']],
    ['socket hang up talking to kubernetes.default.svc:443', ['kubernetes.default.svc']],
  ])('drops the API server address from %s', (message, hidden) => {
    const out = publicReason(message);
    for (const h of hidden) expect(out).not.toContain(h);
  });

  it('keeps what failed and how', () => {
    const out = publicReason(
      'cannot reach the Kubernetes API (get inferenceservice default/x): request to https://10.0.0.1:6443/x failed, reason: connect ECONNREFUSED 10.0.0.1:6443',
    );
    expect(out).toContain('ECONNREFUSED');
    expect(out).toContain('get inferenceservice default/x');
  });
});
