// The certificate libraries, behind one module: @peculiar/x509 (certificates, CRLs, CSRs,
// signature checks and generation over WebCrypto) and the @peculiar/asn1-* schemas it is
// built on (for the fields it does not surface: raw extensions, key structures, time
// encodings). @peculiar/x509 needs a Reflect polyfill loaded before it (tsyringe).
//
// Everything in src/core/pki reaches the libraries through these namespaces, and only at
// call time (`x509.X509Certificate`, never a top-level `class … extends`): the CLI bundle
// (scripts/build-cli.mjs) replaces this module with one that loads the libraries on first
// use, so `mesh-workbench analyze` does not pay for them unless a certificate is read.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import * as asn1 from '@peculiar/asn1-schema';
import * as asnX509 from '@peculiar/asn1-x509';
import * as asnRsa from '@peculiar/asn1-rsa';
import * as asnEcc from '@peculiar/asn1-ecc';
import * as asnPkcs8 from '@peculiar/asn1-pkcs8';
import * as asnCsr from '@peculiar/asn1-csr';

export { x509, asn1, asnX509, asnRsa, asnEcc, asnPkcs8, asnCsr };
