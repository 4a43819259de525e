// Diagnostics shared by the formatter tests.
import type { Diagnostic } from '../../../src/core/document/types.ts';

/** The istio.io docs' example: a Gateway whose selector matches no pod. */
export const gatewayMsg: Diagnostic = {
  level: 'Error',
  code: 'IST0101',
  message: 'Referenced selector not found: "istio=ingressgateway"',
  origin: 'Gateway default/bookinfo-gateway',
  file: 'samples/bookinfo/networking/bookinfo-gateway.yaml',
  line: 9,
  source: 'analyzer',
};
