/**
 * TPP certificates (docs/design.md §5, test/fixtures/certs/SOURCES.md):
 * - readTppCertificate reads the organizationIdentifier, roles and NCA of real and generated
 *   QSealCs (including adorsys' bare-QCStatement quirk and a national-scheme organizationIdentifier)
 *   and names what makes a certificate unusable (no PSD2 statement, short RSA key);
 * - decodeCertificateHeader takes one-line base64 DER or PEM (armour, line breaks) and refuses junk;
 * - the qcStatements encoder and reader agree;
 * - SandboxCa creates its CA once and issues QSealCs it signed, whose keyId names them;
 * - CertificateVerifier with a TrustStore: trusted and valid passes; expired, not yet valid,
 *   untrusted, blocked, revoked (CRL) and too-short keys are refused with the docs/design.md §5 codes;
 *   a CRL not signed by a trusted CA is refused.
 */
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialsFromPem, keyIdOf } from '../../src/client/tpp-credentials.js';
import { AppError } from '../../src/errors/app-error.js';
import { CertificateVerifier } from '../../src/security/certificates/certificate-verifier.js';
import { encodeQsealcStatements, readPsd2Statement } from '../../src/security/certificates/qc-statements.js';
import { ncaIdOf, SandboxCa } from '../../src/security/certificates/sandbox-ca.js';
import { decodeCertificateHeader, readTppCertificate, type TppCertificate } from '../../src/security/certificates/tpp-certificate.js';
import { readRevocationList, TrustStore } from '../../src/security/certificates/trust-store.js';
import { sameAttributes } from '../../src/security/signature/distinguished-name.js';
import { parseKeyId } from '../../src/security/signature/key-id.js';
import type { Psd2Role } from '../../src/security/tpp-identity.js';
import { fixture } from '../support/fixtures.js';

function readFixture(path: string): TppCertificate {
  const der = decodeCertificateHeader(fixture(`certs/${path}`));
  const certificate = der ? readTppCertificate(der) : undefined;
  if (!certificate) throw new Error(`${path} is not a certificate`);
  return certificate;
}

/** One line of base64 DER, the form the Berlin Group documents for TPP-Signature-Certificate. */
function oneLine(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}

/** The AppError a call throws (fails the test when it throws nothing or something else). */
function errorOf(call: () => unknown): AppError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected an AppError');
}

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'xs2a-certs-'));
  tempDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe('readTppCertificate on the fixtures', () => {
  it('reads the generated Norwegian QSealC', () => {
    const certificate = readFixture('generated/test-leaf-qsealc.pem');
    expect(certificate).toMatchObject({
      organizationIdentifier: 'PSDNO-FSA-123456789',
      organizationName: 'Test TPP AS',
      serial: '3E1C1DAD0A1B2C3D',
      psd2: { roles: ['PSP_PI', 'PSP_AI'], ncaName: 'Financial Supervisory Authority of Norway', ncaId: 'NO-FSA' },
      profileProblems: [],
      issuer: ['2.5.4.10=test qtsp as', '2.5.4.3=test psd2 qsealc ca', '2.5.4.6=no'],
      notBefore: new Date('2025-01-01T00:00:00Z'),
      notAfter: new Date('2035-01-01T00:00:00Z'),
    });
    expect(certificate.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(certificate.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
  });

  it("reads the roles of adorsys' bare-QCStatement certificate despite the quirk", () => {
    const certificate = readFixture('adorsys-xs2a/sandbox-tpp-bare-qcstatement.pem');
    expect(certificate.organizationIdentifier).toBe('PSDDE-FAKENCA-87B2AC');
    expect(certificate.psd2).toEqual({ roles: ['PSP_AI', 'PSP_PI'], ncaName: 'Trust Service Provider AG', ncaId: 'DE-FAKENCA' });
    expect(certificate.profileProblems).toEqual([]);
  });

  it('reads the e-Szigno test QSealC (a real QTSP test certificate)', () => {
    const certificate = readFixture('adorsys-xs2a/e-szigno-test-tpp-qsealc.pem');
    expect(certificate.organizationIdentifier).toBe('PSDEU-NCA-1DFD21');
    expect(certificate.psd2?.roles).toEqual(['PSP_AS', 'PSP_PI', 'PSP_AI']);
    expect(certificate.serial).toBe('3853716A83FAFD96BED58AA90A');
  });

  it('reads the zlint PSP_IC certificate as PSP_IC only, its serial without the leading zero', () => {
    const certificate = readFixture('zlint/mtg-test-psd2-psp-ic.pem');
    expect(certificate.psd2?.roles).toEqual(['PSP_IC']);
    expect(certificate.psd2?.ncaId).toBe('DE-BAFIN');
    expect(certificate.serial).toBe('F9DFF534F057F85327CF6BBF5');
  });

  it('names the missing PSD2 statement of a self-signed certificate without one', () => {
    const certificate = readFixture('adorsys-xs2a/no-qcstatement-selfsigned.pem');
    expect(certificate.psd2).toBeUndefined();
    expect(certificate.profileProblems).toContainEqual(expect.stringMatching(/no PSD2 QCStatement/));
    expect(certificate.profileProblems).toContainEqual(expect.stringMatching(/organizationIdentifier/));
  });

  it('reads a national-scheme organizationIdentifier as it is', () => {
    const certificate = readFixture('zlint/mtg-test-psd2-national-scheme-orgid.pem');
    expect(certificate.organizationIdentifier).toBe('EI:SE-5567971433');
    expect(certificate.psd2).toMatchObject({ roles: ['PSP_IC'], ncaId: 'SE-FINA' });
  });

  it('names every reason a CA certificate is not a QSealC', () => {
    const certificate = readFixture('generated/test-ca.pem');
    expect(certificate.profileProblems).toEqual([
      'the key usage does not allow signing',
      'there is no PSD2 QCStatement (ETSI TS 119 495)',
      'the subject has no organizationIdentifier (2.5.4.97)',
    ]);
  });

  it('returns undefined for bytes that are not a certificate', () => {
    expect(readTppCertificate(Buffer.from('not a certificate'))).toBeUndefined();
    expect(readTppCertificate(Buffer.alloc(0))).toBeUndefined();
  });
});

describe('decodeCertificateHeader', () => {
  const pem = fixture('certs/generated/test-leaf-qsealc.pem');
  const der = new X509Certificate(pem).raw;

  it.each([
    ['one line of base64 DER', oneLine(pem)],
    ['PEM with armour and line breaks', pem],
    ['PEM with CRLF line breaks', pem.replace(/\n/g, '\r\n')],
    ['PEM armour on one line', `-----BEGIN CERTIFICATE-----${oneLine(pem)}-----END CERTIFICATE-----`],
    ['PEM with escaped \\n (JSON-style)', pem.replace(/\n/g, '\\n')],
    ['base64 with spaces where the line breaks were', pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\n/g, ' ')],
  ])('decodes %s to the DER', (_form, header) => {
    expect(decodeCertificateHeader(header)).toEqual(der);
  });

  it.each([
    ['empty', ''],
    ['blank', '  \n '],
    ['not base64', 'this is not a certificate!'],
    ['base64 of bad length', 'AAAAA'],
    ['base64url', oneLine(pem).replace(/\+/g, '-').replace(/\//g, '_')],
    ['only armour', '-----BEGIN CERTIFICATE----------END CERTIFICATE-----'],
  ])('refuses %s', (_case, header) => {
    expect(decodeCertificateHeader(header)).toBeUndefined();
  });
});

describe('qcStatements: encode then read', () => {
  it.each<[readonly Psd2Role[]]>([[['PSP_PI']], [['PSP_AS', 'PSP_PI', 'PSP_AI', 'PSP_IC']], [['PSP_AI', 'PSP_PI']]])(
    'round-trips roles %j',
    (roles) => {
      const statement = { roles, ncaName: 'Finanstilsynet', ncaId: 'NO-FSA' };
      expect(readPsd2Statement(encodeQsealcStatements(statement))).toEqual(statement);
    },
  );

  it('keeps non-ASCII NCA names', () => {
    const statement = { roles: ['PSP_AI'] as const, ncaName: 'Finansinspektionen (Sverige) – Å', ncaId: 'SE-FINA' };
    expect(readPsd2Statement(encodeQsealcStatements(statement))).toEqual(statement);
  });

  it('reads a role once when it is listed twice', () => {
    expect(readPsd2Statement(encodeQsealcStatements({ roles: ['PSP_PI', 'PSP_PI'], ncaName: 'n', ncaId: 'NO-FSA' }))?.roles).toEqual([
      'PSP_PI',
    ]);
  });

  it('reads an empty role list as no roles (a profile problem, not a parse failure)', () => {
    expect(readPsd2Statement(encodeQsealcStatements({ roles: [], ncaName: 'n', ncaId: 'NO-FSA' }))).toEqual({
      roles: [],
      ncaName: 'n',
      ncaId: 'NO-FSA',
    });
  });

  it('returns undefined for bytes that are not qcStatements', () => {
    expect(readPsd2Statement(new Uint8Array([1, 2, 3]).buffer)).toBeUndefined();
    expect(readPsd2Statement(new ArrayBuffer(0))).toBeUndefined();
  });
});

describe('SandboxCa', () => {
  let dataDir: string;
  let ca: SandboxCa;
  beforeAll(async () => {
    dataDir = tempDir();
    ca = await SandboxCa.open(dataDir);
  });

  const issue = async (options: { org?: string; roles?: readonly Psd2Role[]; bits?: number; now?: Date } = {}) => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: options.bits ?? 2048 });
    const issued = await ca.issueQsealc(
      {
        organizationIdentifier: options.org ?? 'PSDNO-FSA-123456789',
        name: 'Example TPP AS',
        roles: options.roles ?? ['PSP_PI', 'PSP_AI'],
        publicKey,
      },
      options.now,
    );
    return { ...issued, privateKey };
  };

  it('creates the CA files in <dataDir>/sandbox-ca once, the key readable by its owner only', async () => {
    const certPath = join(dataDir, 'sandbox-ca', 'ca-certificate.pem');
    const keyPath = join(dataDir, 'sandbox-ca', 'ca-private-key.pem');
    expect(existsSync(certPath)).toBe(true);
    expect(existsSync(keyPath)).toBe(true);
    expect(readFileSync(certPath, 'utf8')).toBe(ca.certificatePem);
    expect(statSync(keyPath).mode & 0o077).toBe(0);

    const key = readFileSync(keyPath, 'utf8');
    const again = await SandboxCa.open(dataDir);
    expect(again.certificatePem).toBe(ca.certificatePem);
    expect(readFileSync(keyPath, 'utf8')).toBe(key);
  });

  it('loads the same CA on a second open: it can issue, and the first CA verifies what it issued', async () => {
    const again = await SandboxCa.open(dataDir);
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const issued = await again.issueQsealc({ organizationIdentifier: 'PSDNO-FSA-1', name: 'n', roles: ['PSP_AI'], publicKey });
    expect(new X509Certificate(issued.certificatePem).verify(ca.trustAnchor().publicKey)).toBe(true);
  });

  it('makes a distinct CA in another data directory', async () => {
    const other = await SandboxCa.open(tempDir());
    expect(other.certificatePem).not.toBe(ca.certificatePem);
  });

  it('is a CA certificate', () => {
    expect(ca.trustAnchor().ca).toBe(true);
  });

  it('issues a QSealC readTppCertificate accepts, with the requested organizationIdentifier and roles', async () => {
    const issued = await issue({ org: 'PSDSE-FINA-5567971433', roles: ['PSP_AI', 'PSP_IC'] });
    const certificate = readTppCertificate(decodeCertificateHeader(issued.certificatePem)!);
    expect(certificate).toMatchObject({
      organizationIdentifier: 'PSDSE-FINA-5567971433',
      organizationName: 'Example TPP AS',
      psd2: { roles: ['PSP_AI', 'PSP_IC'], ncaId: 'SE-FINA' },
      profileProblems: [],
      serial: issued.serialNumber,
    });
    expect(certificate!.notAfter).toEqual(issued.notAfter);
  });

  it('signs what it issues (checkIssued and verify against the CA certificate)', async () => {
    const issued = await issue();
    const node = new X509Certificate(issued.certificatePem);
    expect(node.checkIssued(ca.trustAnchor())).toBe(true);
    expect(node.verify(ca.trustAnchor().publicKey)).toBe(true);
    expect(node.checkPrivateKey(issued.privateKey)).toBe(true);
  });

  it('gives a keyId SN=…,CA=… that parseKeyId reads and that names the certificate', async () => {
    const issued = await issue();
    expect(issued.keyId).toMatch(/^SN=[0-9A-F]+,CA=/);
    const certificate = readTppCertificate(decodeCertificateHeader(issued.certificatePem)!)!;
    const keyId = parseKeyId(issued.keyId);
    expect(keyId?.serial).toBe(certificate.serial);
    expect(sameAttributes(keyId!.issuer, certificate.issuer)).toBe(true);
  });

  it("agrees with the client's keyIdOf for the same certificate", async () => {
    const issued = await issue();
    const fromServer = parseKeyId(issued.keyId)!;
    const fromClient = parseKeyId(keyIdOf(issued.certificatePem))!;
    expect(fromClient.serial).toBe(fromServer.serial);
    expect(sameAttributes(fromClient.issuer, fromServer.issuer)).toBe(true);
    expect(credentialsFromPem(issued.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), issued.certificatePem).keyId).toBe(
      keyIdOf(issued.certificatePem),
    );
  });

  it('gives each certificate its own serial', async () => {
    const [a, b] = await Promise.all([issue(), issue()]);
    expect(a.serialNumber).not.toBe(b.serialNumber);
  });

  it.each([
    ['PSDNO-FSA-123456789', 'NO-FSA'],
    ['PSDDE-BAFIN-1', 'DE-BAFIN'],
  ])('takes the NCA id of %s as %s', (org, ncaId) => {
    expect(ncaIdOf(org)).toBe(ncaId);
  });
});

describe('CertificateVerifier with a TrustStore', () => {
  let ca: SandboxCa;
  let otherCa: SandboxCa;
  let trust: TrustStore;
  let good: { pem: string; serial: string; certificate: TppCertificate };
  beforeAll(async () => {
    ca = await SandboxCa.open(tempDir());
    otherCa = await SandboxCa.open(tempDir());
    trust = new TrustStore([ca.trustAnchor()]);
    good = await issueFrom(ca);
  });

  async function issueFrom(issuer: SandboxCa, bits = 2048, now?: Date) {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
    const issued = await issuer.issueQsealc(
      { organizationIdentifier: 'PSDNO-FSA-123456789', name: 'Example TPP AS', roles: ['PSP_PI'], publicKey },
      now,
    );
    return {
      pem: issued.certificatePem,
      serial: issued.serialNumber,
      certificate: readTppCertificate(decodeCertificateHeader(issued.certificatePem)!)!,
    };
  }

  it('returns a trusted, valid certificate sent as one line of base64 DER or as PEM', () => {
    const verifier = new CertificateVerifier(trust);
    expect(verifier.verify(oneLine(good.pem), new Date()).organizationIdentifier).toBe('PSDNO-FSA-123456789');
    expect(verifier.verify(good.pem, new Date()).fingerprint).toBe(good.certificate.fingerprint);
  });

  it('returns the fixture QSealC when its CA is trusted, inside its validity', () => {
    const verifier = new CertificateVerifier(new TrustStore([new X509Certificate(fixture('certs/generated/test-ca.pem'))]));
    expect(verifier.verify(fixture('certs/generated/test-leaf-qsealc.pem'), new Date('2030-06-01T00:00:00Z')).psd2?.roles).toEqual([
      'PSP_PI',
      'PSP_AI',
    ]);
  });

  it('refuses an expired certificate with CERTIFICATE_EXPIRED', () => {
    const later = new Date(good.certificate.notAfter.getTime() + 1000);
    const error = errorOf(() => new CertificateVerifier(trust).verify(good.pem, later));
    expect(error.code).toBe('CERTIFICATE_EXPIRED');
    expect(error.detail?.en).toContain(good.certificate.notAfter.toISOString());
  });

  it('refuses a certificate issued long ago with CERTIFICATE_EXPIRED', async () => {
    const old = await issueFrom(ca, 2048, new Date(Date.now() - 3 * 365 * 86_400_000));
    expect(errorOf(() => new CertificateVerifier(trust).verify(old.pem, new Date())).code).toBe('CERTIFICATE_EXPIRED');
  });

  it('refuses the expired e-Szigno QSealC even though its CA is trusted', () => {
    const verifier = new CertificateVerifier(new TrustStore([new X509Certificate(fixture('certs/adorsys-xs2a/e-szigno-test-ca3.pem'))]));
    const pem = fixture('certs/adorsys-xs2a/e-szigno-test-tpp-qsealc.pem');
    expect(verifier.verify(pem, new Date('2018-04-01T00:00:00Z')).organizationIdentifier).toBe('PSDEU-NCA-1DFD21');
    expect(errorOf(() => verifier.verify(pem, new Date())).code).toBe('CERTIFICATE_EXPIRED');
  });

  it('refuses a certificate not valid yet with CERTIFICATE_INVALID', async () => {
    const future = await issueFrom(ca, 2048, new Date(Date.now() + 30 * 86_400_000));
    const error = errorOf(() => new CertificateVerifier(trust).verify(future.pem, new Date()));
    expect(error.code).toBe('CERTIFICATE_INVALID');
    expect(error.detail?.en).toMatch(/not valid before/);
  });

  it('refuses a certificate from a CA it does not trust with CERTIFICATE_INVALID', async () => {
    const stranger = await issueFrom(otherCa);
    const error = errorOf(() => new CertificateVerifier(trust).verify(stranger.pem, new Date()));
    expect(error.code).toBe('CERTIFICATE_INVALID');
    expect(error.detail?.en).toMatch(/not issued by a certificate authority this bank trusts/);
    expect(errorOf(() => new CertificateVerifier(new TrustStore([])).verify(good.pem, new Date())).code).toBe('CERTIFICATE_INVALID');
  });

  it('refuses a self-signed certificate without a PSD2 statement with CERTIFICATE_INVALID naming it', () => {
    const error = errorOf(() =>
      new CertificateVerifier(trust).verify(fixture('certs/adorsys-xs2a/no-qcstatement-selfsigned.pem'), new Date()),
    );
    expect(error.code).toBe('CERTIFICATE_INVALID');
    expect(error.detail?.en).toMatch(/no PSD2 QCStatement/);
  });

  it('refuses a header that is not a certificate with CERTIFICATE_INVALID', () => {
    const verifier = new CertificateVerifier(trust);
    expect(errorOf(() => verifier.verify('junk!', new Date())).code).toBe('CERTIFICATE_INVALID');
    expect(errorOf(() => verifier.verify(Buffer.from('not a certificate').toString('base64'), new Date())).code).toBe(
      'CERTIFICATE_INVALID',
    );
  });

  it('refuses a blocked fingerprint with CERTIFICATE_BLOCKED, and only that one', async () => {
    const verifier = new CertificateVerifier(trust, new Set([good.certificate.fingerprint]));
    expect(errorOf(() => verifier.verify(good.pem, new Date())).code).toBe('CERTIFICATE_BLOCKED');
    expect(errorOf(() => verifier.verify(oneLine(good.pem), new Date())).code).toBe('CERTIFICATE_BLOCKED');
    const other = await issueFrom(ca);
    expect(verifier.verify(other.pem, new Date()).fingerprint).toBe(other.certificate.fingerprint);
  });

  it('refuses a certificate its CA revoked (CRL) with CERTIFICATE_REVOKED, and only that one', async () => {
    const revoked = await issueFrom(ca);
    const crl = await readRevocationList(await ca.revocationList([revoked.serial]), [ca.trustAnchor()]);
    const verifier = new CertificateVerifier(new TrustStore([ca.trustAnchor()], [crl]));
    expect(errorOf(() => verifier.verify(revoked.pem, new Date())).code).toBe('CERTIFICATE_REVOKED');
    expect(verifier.verify(good.pem, new Date()).serial).toBe(good.serial);
  });

  it('reads a CRL given as DER bytes too', async () => {
    const revoked = await issueFrom(ca);
    const pem = await ca.revocationList([revoked.serial]);
    const der = Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
    const crl = await readRevocationList(der, [ca.trustAnchor()]);
    expect(errorOf(() => new CertificateVerifier(new TrustStore([ca.trustAnchor()], [crl])).verify(revoked.pem, new Date())).code).toBe(
      'CERTIFICATE_REVOKED',
    );
  });

  it('refuses a CRL signed by another CA (even one with the same name)', async () => {
    const crl = await otherCa.revocationList([good.serial]);
    await expect(readRevocationList(crl, [ca.trustAnchor()])).rejects.toThrow(/not signed by a trusted certificate authority/);
    await expect(readRevocationList(crl, [])).rejects.toThrow(/not signed by a trusted certificate authority/);
  });

  it('refuses a certificate with a 1024-bit key with CERTIFICATE_INVALID, naming the bits', async () => {
    const weak = await issueFrom(ca, 1024);
    expect(weak.certificate.profileProblems).toEqual(['the RSA key has 1024 bits; at least 2048 are required']);
    const error = errorOf(() => new CertificateVerifier(trust).verify(weak.pem, new Date()));
    expect(error.code).toBe('CERTIFICATE_INVALID');
    expect(error.detail?.en).toMatch(/1024 bits/);
  });
});
