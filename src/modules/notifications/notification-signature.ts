import { sign } from 'node:crypto';
import { digestHeader } from '../../security/signature/digest.js';
import { ALWAYS_SIGNED } from '../../security/signature/signed-headers.js';
import { buildSigningString } from '../../security/signature/signing-string.js';
import type { BankSeal } from './bank-seal.js';

/** The header carrying the bank's seal certificate, as TPP-Signature-Certificate carries a TPP's. */
export const SEAL_CERTIFICATE_HEADER = 'aspsp-signature-certificate';

/**
 * The headers of a signed notification: the scheme the bank verifies on TPPs' requests
 * (draft-cavage-http-signatures-10, rsa-sha256, docs/design.md §5) turned round. Digest over the
 * body; Signature over `date`, `digest` and `x-request-id` (the notification's id), with a keyId
 * naming the seal certificate that ASPSP-Signature-Certificate carries.
 */
export function signNotification(body: Buffer, notificationId: string, seal: BankSeal, date: Date): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-request-id': notificationId,
    digest: digestHeader(body),
    date: date.toUTCString(),
    // One line of base64 DER, the form the Berlin Group documents for TPP-Signature-Certificate.
    [SEAL_CERTIFICATE_HEADER]: seal.certificatePem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, ''),
  };
  const signingString = buildSigningString(ALWAYS_SIGNED, {
    method: 'POST',
    target: '',
    header: (name) => (headers[name] === undefined ? undefined : [headers[name]]),
  });
  if (!signingString.ok) throw new Error(`cannot sign a notification: header ${signingString.missingHeader} is missing`);
  const signature = sign('sha256', signingString.bytes, seal.privateKey).toString('base64');
  headers['signature'] = `keyId="${seal.keyId}",algorithm="rsa-sha256",headers="${ALWAYS_SIGNED.join(' ')}",signature="${signature}"`;
  return headers;
}
