// External SDS (pilot/pkg/security/model/authentication.go ConstructSdsSecretConfigForCredential):
// a gateway or DestinationRule credentialName `sds://<resource>` is fetched over gRPC from the
// mesh's first SDS extension provider (its service and port looked up as model.LookupCluster
// does), instead of from istiod over ADS. Without a provider the resource is read as a
// Kubernetes Secret (ADS); with one whose service cannot be found istiod logs an error and
// sends no SDS config for it.
import type { ConfigView } from '../config/configView.ts';
import { isObj, num, str } from '../document/read.ts';
import { lookupCluster } from './authz/extAuthz.ts';

export type ExternalSds = { cluster: string; hostname: string } | { error: string };

export function externalSdsOf(view: ConfigView, services: readonly { hostname: string; namespace: string }[]): ExternalSds | undefined {
  const providers = Array.isArray(view.meshConfig.extensionProviders) ? view.meshConfig.extensionProviders : [];
  for (const p of providers) {
    if (!isObj(p) || !isObj(p.sds)) continue;
    const found = lookupCluster((h) => services.filter((s) => s.hostname === h), str(p.sds.service), num(p.sds.port));
    return 'error' in found ? { error: found.error } : found;
  }
  return undefined;
}
