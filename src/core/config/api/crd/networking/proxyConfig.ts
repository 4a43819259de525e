// networking.istio.io ProxyConfig (proxy_config.proto).
import { describe, int, map, message, string } from '../../../shape.ts';
import { WorkloadSelector } from '../common.ts';

export const ProxyImage = message(
  {
    imageType: string,
  },
  { proto: true },
);

export const ProxyConfigSpec = message(
  {
    concurrency: describe(describe(int, { minimum: 0, nullable: true }), { help: 'Worker threads of the proxy; 0 means one per CPU core.' }),
    environmentVariables: describe(map(describe(string, { maxLength: 2048 })), { help: 'Extra environment variables for the proxy.' }),
    image: describe(ProxyImage, { help: 'Which proxy image type to use (e.g. distroless).' }),
    selector: describe(WorkloadSelector, { help: 'Labels that pick the workloads this policy applies to; without it, the whole namespace.' }),
  },
  { proto: true },
);
