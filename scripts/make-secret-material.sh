#!/usr/bin/env bash
# Makes tests/fixtures/share/secret-material.json: real certificates and private keys in
# every encoding redaction must recognise (PEM PKCS#8/PKCS#1/SEC1, encrypted PKCS#8, DER,
# PKCS#12, openssl's "Bag Attributes" output, OpenSSH, OpenPGP). Test material only.
# Needs openssl, ssh-keygen, gpg and python3. Run by hand; the output is committed.
set -euo pipefail
out="$(cd "$(dirname "$0")/.." && pwd)/tests/fixtures/share/secret-material.json"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout root.key -out root.crt -days 3650 -subj "/O=Workbench Test/CN=Root CA" -addext "basicConstraints=critical,CA:TRUE" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout leaf.key -out leaf.csr -subj "/O=Workbench Test/CN=leaf" 2>/dev/null
openssl x509 -req -in leaf.csr -CA root.crt -CAkey root.key -CAcreateserial -out leaf.crt -days 3650 2>/dev/null
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out rsa8.pem 2>/dev/null
openssl pkey -in rsa8.pem -traditional -out rsa1.pem
openssl ec -in leaf.key -out ec1.pem 2>/dev/null
openssl pkcs8 -topk8 -in rsa8.pem -passout pass:secret -out enc8.pem
openssl genpkey -algorithm ED25519 -out ed.pem
openssl pkey -in rsa8.pem -outform DER -out rsa.der
openssl pkcs12 -export -inkey leaf.key -in leaf.crt -passout pass:x -out leaf.p12
openssl pkcs12 -in leaf.p12 -nodes -passin pass:x -out bag.pem
ssh-keygen -q -t ed25519 -N '' -f ssh_ed -C test >/dev/null
export GNUPGHOME="$work/gpg"
mkdir -m 700 "$GNUPGHOME"
gpg --batch --passphrase '' --quick-gen-key "Workbench Test <test@example.com>" ed25519 sign never 2>/dev/null
gpg --batch --armor --export-secret-keys > pgp.asc 2>/dev/null
python3 - "$out" <<'PY'
import base64, json, sys
r = lambda p: open(p).read()
b = lambda p: base64.b64encode(open(p, 'rb').read()).decode()
m = {
  "_about": "Real certificates and private keys made once with openssl 3.0, ssh-keygen and gpg (scripts/make-secret-material.sh) for the redaction tests and the redaction fuzz target. Test material only: no system trusts or uses them.",
  "rootCert": r('root.crt'), "leafCert": r('leaf.crt'),
  "rsaPkcs8": r('rsa8.pem'), "rsaPkcs1": r('rsa1.pem'), "ecSec1": r('ec1.pem'), "encryptedPkcs8": r('enc8.pem'), "ed25519Pkcs8": r('ed.pem'),
  "rsaDerBase64": b('rsa.der'), "pkcs12Base64": b('leaf.p12'), "bagAttributesPem": r('bag.pem'), "opensshKey": r('ssh_ed'), "pgpKey": r('pgp.asc'),
}
json.dump(m, open(sys.argv[1], 'w'), indent=1)
PY
