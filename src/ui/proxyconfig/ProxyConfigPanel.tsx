// Kept so the inspector keeps compiling: its Proxy config tab now shows the summary, and the
// full view opens in the main area (ProxyConfigView).
import { ProxyConfigSummary } from './ProxyConfigSummary.tsx';

export function ProxyConfigPanel() {
  return <ProxyConfigSummary />;
}
