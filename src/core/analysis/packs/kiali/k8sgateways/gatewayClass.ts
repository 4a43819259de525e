// k8sgateways.GatewayClassChecker (Kiali business/checkers/k8sgateways/gatewayclass_checker.go):
// a Gateway API Gateway's gatewayClassName must be one of the classes Kiali is configured with
// (external_services.istio.gateway_api_classes): otherwise KIA1504, and it is invalid.
import { KINDS } from '../../../../document/kinds.ts';
import { isObj, str } from '../../../../document/read.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';

export const gatewayClassChecker = objectChecker('k8sgateways.GatewayClassChecker', KINDS.KubernetesGateway, ['KIA1504'], (ctx, gw) => {
  const spec = isObj(gw.body.spec) ? gw.body.spec : {};
  if (ctx.gatewayApiClasses.includes(str(spec.gatewayClassName))) return { checks: [], valid: true };
  return { checks: [buildCheck('k8sgateways.gatewayclassnotfound', 'spec/gatewayClassName')], valid: false };
});
