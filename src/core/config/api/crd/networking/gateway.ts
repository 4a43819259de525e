// networking.istio.io Gateway: servers, ports and server TLS (gateway.proto).
import { bool, describe, enumOf, int, list, message, string, strings } from '../../../shape.ts';

export const GatewayPort = message(
  {
    name: describe(string, { help: 'Name of the port.' }),
    number: describe(describe(int, { minimum: 0, maximum: 4294967295 }), { help: 'Port number to listen on.' }),
    protocol: describe(string, { help: 'HTTP, HTTPS, GRPC, GRPC-WEB, HTTP2, MONGO, TCP or TLS.' }),
    targetPort: describe(describe(int, { minimum: 0, maximum: 4294967295 }), { help: 'Port on the gateway pod that receives the traffic.' }),
  },
  { proto: true, required: ['number', 'protocol', 'name'] },
);

export const TLSCertificate = message(
  {
    caCertificates: string,
    privateKey: string,
    serverCertificate: string,
  },
  { proto: true },
);

export const ServerTLSSettings = message(
  {
    caCertCredentialName: string,
    caCertificates: string,
    caCrl: string,
    cipherSuites: list(string),
    credentialName: describe(string, { help: "Secret (in the gateway's namespace) with the server certificate and key." }),
    credentialNames: describe(list(string), { minItems: 1, maxItems: 2 }),
    ecdhCurves: list(string),
    httpsRedirect: describe(bool, { help: 'Answer plain HTTP requests with a redirect to HTTPS.' }),
    insecureSkipVerify: describe(bool, { nullable: true }),
    maxProtocolVersion: enumOf(['TLS_AUTO', 'TLSV1_0', 'TLSV1_1', 'TLSV1_2', 'TLSV1_3']),
    minProtocolVersion: describe(enumOf(['TLS_AUTO', 'TLSV1_0', 'TLSV1_1', 'TLSV1_2', 'TLSV1_3']), { help: 'Lowest TLS version accepted.' }),
    mode: describe(enumOf(['PASSTHROUGH', 'SIMPLE', 'MUTUAL', 'AUTO_PASSTHROUGH', 'ISTIO_MUTUAL', 'OPTIONAL_MUTUAL']), {
      help: 'SIMPLE (TLS), MUTUAL (client certs), ISTIO_MUTUAL, PASSTHROUGH (SNI routing), AUTO_PASSTHROUGH or OPTIONAL_MUTUAL.',
    }),
    privateKey: string,
    serverCertificate: string,
    subjectAltNames: list(string),
    tlsCertificates: describe(list(TLSCertificate), { minItems: 1, maxItems: 2 }),
    verifyCertificateHash: list(string),
    verifyCertificateSpki: list(string),
  },
  {
    proto: true,
    rules: [
      {
        rule: '(has(self.tlsCertificates) ? 1 : 0) + (has(self.credentialNames) ? 1 : 0) <= 1',
        message: 'only one of credentialNames or tlsCertificates can be set',
      },
      {
        rule: '(has(self.credentialName) ? 1 : 0) + (has(self.credentialNames) ? 1 : 0) <= 1',
        message: 'only one of credentialName or credentialNames can be set',
      },
      {
        rule: '(has(self.credentialNames) ? 1 : 0) + (has(self.tlsCertificates) ? 1 : 0) <= 1',
        message: 'only one of credentialName or tlsCertificates can be set',
      },
    ],
  },
);

export const Server = message(
  {
    bind: describe(string, { help: 'IP or Unix socket to listen on instead of all addresses.' }),
    defaultEndpoint: string,
    hosts: describe(list(string), { help: 'Hosts exposed on this port; namespace/host limits which VirtualServices may bind.' }),
    name: describe(string, { help: 'Optional name of the server, unique across the gateway.' }),
    port: describe(GatewayPort, { help: 'The port to listen on, with its protocol and a name.' }),
    tls: describe(ServerTLSSettings, { help: 'TLS settings for this port (HTTPS, TLS).' }),
  },
  { proto: true, required: ['port', 'hosts'] },
);

export const GatewaySpec = message(
  {
    selector: describe(strings, { help: 'Labels of the gateway pods that apply this configuration.' }),
    servers: describe(list(Server), { help: 'The ports, protocols and hosts this gateway listens on.' }),
  },
  { proto: true },
);
