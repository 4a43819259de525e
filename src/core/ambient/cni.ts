// The redirection istio-cni programs inside an enrolled pod's network namespace (the nat
// table of cni/pkg/iptables, testdata/default.golden), as a readable rule list: each rule
// with the iptables line it stands for.
import type { SimPod } from './cluster.ts';

export interface RedirectRule {
  chain: 'PREROUTING (inbound)' | 'OUTPUT (outbound)';
  /** What the rule does, in words. */
  description: string;
  /** The iptables rule (nat table). */
  iptables: string;
}

export const HOST_PROBE_SNAT_IP = '169.254.7.127';
/** The mark ztunnel sets on its own sockets (1337), so its traffic is never redirected again. */
const ZTUNNEL_MARK = '0x539/0xfff';

/** The rules for a pod, or none when istio-cni does not redirect it. */
export function redirectionRules(pod: SimPod): RedirectRule[] {
  if (pod.mode !== 'ambient' || pod.state !== 'running') return [];
  const rules: RedirectRule[] = [
    {
      chain: 'PREROUTING (inbound)',
      description: `Kubelet health probes arrive from the host-probe SNAT address ${HOST_PROBE_SNAT_IP}: accepted without redirection, so probes bypass ztunnel and every policy.`,
      iptables: `-A ISTIO_PRERT -s ${HOST_PROBE_SNAT_IP} -p tcp -m tcp -j ACCEPT`,
    },
    {
      chain: 'OUTPUT (outbound)',
      description: `Replies to the host-probe address ${HOST_PROBE_SNAT_IP} leave directly.`,
      iptables: `-A ISTIO_OUTPUT -d ${HOST_PROBE_SNAT_IP} -p tcp -m tcp -j ACCEPT`,
    },
  ];
  if (pod.bypassInboundCapture) {
    rules.push({
      chain: 'PREROUTING (inbound)',
      description:
        "ambient.istio.io/bypass-inbound-capture=true: inbound plaintext is NOT redirected (it reaches the app unchecked); HBONE to :15008 is still accepted by ztunnel's in-pod listener.",
      iptables: '(no REDIRECT to 15006)',
    });
  } else {
    rules.push({
      chain: 'PREROUTING (inbound)',
      description:
        "Inbound TCP to any port except 15008 (HBONE), not to 127.0.0.1 and not from ztunnel, is redirected to ztunnel's inbound plaintext listener :15006.",
      iptables: `-A ISTIO_PRERT ! -d 127.0.0.1/32 -p tcp ! --dport 15008 -m mark ! --mark ${ZTUNNEL_MARK} -j REDIRECT --to-ports 15006`,
    });
  }
  rules.push({
    chain: 'PREROUTING (inbound)',
    description: "Inbound to :15008 is not redirected: ztunnel's HBONE listener inside the pod's network namespace accepts it (mTLS + HTTP/2 CONNECT).",
    iptables: '(no rule: 15008 is excluded above)',
  });
  if (pod.dnsCapture) {
    rules.push(
      {
        chain: 'OUTPUT (outbound)',
        description: "DNS over UDP (port 53) is redirected to ztunnel's DNS proxy :15053.",
        iptables: `-A ISTIO_OUTPUT ! -o lo -p udp -m mark ! --mark ${ZTUNNEL_MARK} -m udp --dport 53 -j REDIRECT --to-port 15053`,
      },
      {
        chain: 'OUTPUT (outbound)',
        description: "DNS over TCP (port 53) is redirected to ztunnel's DNS proxy :15053.",
        iptables: `-A ISTIO_OUTPUT ! -d 127.0.0.1/32 -p tcp --dport 53 -m mark ! --mark ${ZTUNNEL_MARK} -j REDIRECT --to-ports 15053`,
      },
    );
  }
  rules.push(
    {
      chain: 'OUTPUT (outbound)',
      description: 'Replies on connections ztunnel accepted inbound (connmark 0x111) go out untouched.',
      iptables: '-A ISTIO_OUTPUT -p tcp -m mark --mark 0x111/0xfff -j ACCEPT',
    },
    {
      chain: 'OUTPUT (outbound)',
      description: "Traffic to the pod's own addresses over loopback is not redirected.",
      iptables: '-A ISTIO_OUTPUT ! -d 127.0.0.1/32 -o lo -j ACCEPT',
    },
    {
      chain: 'OUTPUT (outbound)',
      description:
        "Every other outbound TCP connection, not to 127.0.0.1 and not from ztunnel, is redirected to ztunnel's outbound listener :15001. UDP other than DNS is not captured.",
      iptables: `-A ISTIO_OUTPUT ! -d 127.0.0.1/32 -p tcp -m mark ! --mark ${ZTUNNEL_MARK} -j REDIRECT --to-ports 15001`,
    },
  );
  return rules;
}
