// Go's one-line proto text as istioctl x describe prints a fault and a TCP match: fields in
// field-number order whatever the YAML's order (istioctl prints `route.Fault.String()`; found by
// the describe oracle, where istioctl printed `delay:{fixed_delay:{seconds:7} percentage:{value:100}}`
// for a delay written with `percentage` first). Go's extra space between fields in some builds
// is left out (see protoText.ts).
import { describe, expect, it } from 'vitest';
import { protoText } from '../../../src/core/queries/describe/protoText.ts';

describe('protoText', () => {
  it('prints a fault in field-number order: delay before abort, fixed_delay before percentage', () => {
    const fault = {
      abort: { percentage: { value: 5 }, httpStatus: 503 },
      delay: { percentage: { value: 100 }, fixedDelay: '7s' },
    };
    expect(protoText(fault, 'HTTPFaultInjection')).toBe('delay:{fixed_delay:{seconds:7} percentage:{value:100}} abort:{http_status:503 percentage:{value:5}}');
  });

  it('prints a TCP match in field-number order, map entries sorted by key', () => {
    const match = { sourceNamespace: 'web', sourceLabels: { version: 'v1', app: 'a' }, port: 9000, destinationSubnets: ['10.0.0.0/8'] };
    expect(protoText(match, 'L4MatchAttributes')).toBe(
      'destination_subnets:"10.0.0.0/8" port:9000 source_labels:{key:"app" value:"a"} source_labels:{key:"version" value:"v1"} source_namespace:"web"',
    );
  });

  it('keeps fields the message does not know after the known ones, as written', () => {
    expect(protoText({ zeta: 'z', delay: { fixedDelay: '1.5s' } }, 'HTTPFaultInjection')).toBe('delay:{fixed_delay:{seconds:1 nanos:500000000}} zeta:"z"');
  });
});
