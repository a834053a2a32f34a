// TLS for a server without a reverse proxy: a self-signed certificate made with node-forge at
// install (names from the base URL and this host), and checks of an operator's certificate and key.

import { generateKeyPairSync, randomBytes, X509Certificate, createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import forge from 'node-forge';
import { InstallerError } from './installation.js';

export interface SelfSignedInput {
  /** Host names and IP addresses the certificate names; the first is also its common name. */
  names: string[];
  now: Date;
  days?: number;
}

export interface PemPair {
  cert: string;
  key: string;
}

/** 825 days: the longest validity clients accept for a certificate they are told to trust. */
export const SELF_SIGNED_DAYS = 825;

export function selfSignedCertificate(input: SelfSignedInput): PemPair {
  const names = [...new Set(input.names.filter(Boolean))];
  if (names.length === 0) throw new Error('a certificate needs at least one name');
  // The key comes from OpenSSL (fast); forge only writes and signs the certificate.
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const forgeKey = forge.pki.privateKeyFromPem(keyPem);
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e);
  // A positive serial: the first byte below 0x80.
  const serial = randomBytes(16);
  serial[0]! &= 0x7f;
  cert.serialNumber = serial.toString('hex');
  cert.validity.notBefore = new Date(input.now.getTime() - 60_000);
  cert.validity.notAfter = new Date(input.now.getTime() + (input.days ?? SELF_SIGNED_DAYS) * 86_400_000);
  const subject = [
    { name: 'commonName', value: names[0]! },
    { name: 'organizationName', value: 'pp self-signed' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: names.map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n })) },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(forgeKey, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: keyPem };
}

export interface CertificateFacts {
  subject: string;
  names: string[];
  notBefore: Date;
  notAfter: Date;
}

/** Reads an operator's certificate and key and refuses a pair that does not belong together. */
export function checkCertificatePair(certFile: string, keyFile: string): CertificateFacts {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(readFileSync(certFile));
  } catch (err) {
    throw new InstallerError(`${certFile} is not a readable PEM certificate: ${(err as Error).message}`);
  }
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(readFileSync(keyFile));
  } catch (err) {
    throw new InstallerError(`${keyFile} is not a readable PEM private key: ${(err as Error).message}`);
  }
  if (!cert.checkPrivateKey(key)) throw new InstallerError(`${keyFile} is not the private key of ${certFile}`);
  return certificateFacts(cert);
}

export function readCertificate(certFile: string): CertificateFacts {
  return certificateFacts(new X509Certificate(readFileSync(certFile)));
}

function certificateFacts(cert: X509Certificate): CertificateFacts {
  const names = (cert.subjectAltName ?? '')
    .split(', ')
    .map((s) => s.replace(/^(DNS|IP Address):/, ''))
    .filter(Boolean);
  return { subject: cert.subject, names, notBefore: new Date(cert.validFrom), notAfter: new Date(cert.validTo) };
}
