/**
 * A notification's signature (docs/notifications.md): the scheme the bank verifies on TPPs'
 * requests, turned round. The project's own parsers read it (keyId naming the seal certificate,
 * rsa-sha256 over date, digest and x-request-id), and the TPP's check (the code the docs show,
 * test/support/notification-receiver.ts) accepts it and refuses any change to it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBankSeal, type BankSeal } from '../../src/modules/notifications/bank-seal.js';
import { signNotification } from '../../src/modules/notifications/notification-signature.js';
import { readTppCertificate } from '../../src/security/certificates/tpp-certificate.js';
import { sameAttributes } from '../../src/security/signature/distinguished-name.js';
import { parseKeyId } from '../../src/security/signature/key-id.js';
import { parseSignatureParameters } from '../../src/security/signature/signature-parameters.js';
import { verifyNotification } from '../support/notification-receiver.js';

const AT = new Date('2026-12-02T09:00:00.000Z');
const BODY = Buffer.from('{"notificationId":"n-1","resourceType":"payment","resourceId":"p-1","transactionStatus":"ACSC"}');

describe('notification signature', () => {
  let dir: string;
  let seal: BankSeal;
  let other: BankSeal;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'xs2a-seal-'));
    seal = await openBankSeal({ keyFile: undefined, certificateFile: undefined, dataDir: join(dir, 'a'), bankName: 'Test Bank' });
    other = await openBankSeal({ keyFile: undefined, certificateFile: undefined, dataDir: join(dir, 'b'), bankName: 'Other Bank' });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const check = (headers: Record<string, string>, body = BODY, certificate = seal.certificatePem) =>
    verifyNotification((name) => headers[name], body, new X509Certificate(certificate), AT.getTime());

  it('is read by the parsers the bank verifies TPPs with: keyId names the certificate sent, the mandatory headers are signed', () => {
    const headers = signNotification(BODY, 'n-1', seal, AT);
    expect(headers).toMatchObject({ 'x-request-id': 'n-1', date: AT.toUTCString(), 'content-type': 'application/json' });
    const parameters = parseSignatureParameters(headers['signature']!);
    expect(parameters.ok).toBe(true);
    if (!parameters.ok) return;
    expect(parameters.value).toMatchObject({ algorithm: 'rsa-sha256', headers: ['date', 'digest', 'x-request-id'] });
    const certificate = readTppCertificate(Buffer.from(headers['aspsp-signature-certificate']!, 'base64'))!;
    const keyId = parseKeyId(parameters.value.keyId)!;
    expect(keyId.serial).toBe(certificate.serial);
    expect(sameAttributes(keyId.issuer, certificate.issuer)).toBe(true);
  });

  it("verifies with the bank's certificate", () => {
    expect(check(signNotification(BODY, 'n-1', seal, AT))).toBeUndefined();
  });

  it.each([
    ['another body', (h: Record<string, string>) => ({ headers: h, body: Buffer.from('{"transactionStatus":"RJCT"}') }), /Digest/],
    ['another x-request-id', (h: Record<string, string>) => ({ headers: { ...h, 'x-request-id': 'n-2' }, body: BODY }), /does not verify/],
    [
      'another Date',
      (h: Record<string, string>) => ({ headers: { ...h, date: new Date(AT.getTime() + 1000).toUTCString() }, body: BODY }),
      /does not verify/,
    ],
    ['an old Date', (h: Record<string, string>) => ({ headers: h, body: BODY, at: AT.getTime() + 10 * 60_000 }), /five minutes/],
  ])('is refused with %s', (_what, change, problem) => {
    const changed = change(signNotification(BODY, 'n-1', seal, AT)) as { headers: Record<string, string>; body: Buffer; at?: number };
    expect(
      verifyNotification(
        (name) => changed.headers[name],
        changed.body,
        new X509Certificate(seal.certificatePem),
        changed.at ?? AT.getTime(),
      ),
    ).toMatch(problem);
  });

  it("is refused when signed by another key or when the certificate sent is not the bank's", () => {
    expect(check(signNotification(BODY, 'n-1', other, AT))).toMatch(/not the bank's seal certificate/);
    const forged = {
      ...signNotification(BODY, 'n-1', other, AT),
      'aspsp-signature-certificate': signNotification(BODY, 'n-1', seal, AT)['aspsp-signature-certificate']!,
    };
    expect(check(forged)).toMatch(/does not verify/);
  });

  it('keeps one seal across restarts, and refuses a key that is not its certificate’s', async () => {
    const again = await openBankSeal({ keyFile: undefined, certificateFile: undefined, dataDir: join(dir, 'a'), bankName: 'Test Bank' });
    expect(again.certificatePem).toBe(seal.certificatePem);
    await expect(
      openBankSeal({
        keyFile: join(dir, 'b', 'notification-seal', 'seal-private-key.pem'),
        certificateFile: join(dir, 'a', 'notification-seal', 'seal-certificate.pem'),
        dataDir: dir,
        bankName: 'Test Bank',
      }),
    ).rejects.toThrow(/does not belong to its certificate/);
  });
});
