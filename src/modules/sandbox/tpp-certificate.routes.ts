import { createPublicKey, type KeyObject } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors/app-error.js';
import { localized } from '../../domain/localized.js';
import { signedErrorResponses } from '../../http/schemas/common.schemas.js';
import { ORGANIZATION_IDENTIFIER, type SandboxCa } from '../../security/certificates/sandbox-ca.js';
import { PSD2_ROLES } from '../../security/tpp-identity.js';
import type { TppCertificateDesk } from './tpp-certificate.service.js';

const CertificateRequest = Type.Object(
  {
    publicKey: Type.String({ description: "The TPP's RSA public key (at least 2048 bits), PEM (SPKI)", maxLength: 10_000 }),
    organizationIdentifier: Type.String({ pattern: ORGANIZATION_IDENTIFIER.source, description: 'e.g. PSDNO-FSA-123456789' }),
    name: Type.String({ minLength: 1, maxLength: 64, description: 'Organisation name for the certificate subject' }),
    roles: Type.Array(Type.Union(PSD2_ROLES.map((role) => Type.Literal(role))), { minItems: 1, uniqueItems: true }),
    domains: Type.Optional(
      Type.Array(
        Type.String({
          maxLength: 253,
          pattern: '^(\\*\\.)?[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$',
        }),
        {
          maxItems: 10,
          uniqueItems: true,
          description:
            'Host names (or IPv4 addresses) the certificate secures, in its subjectAltName: where the bank may send status notifications (e.g. localhost or 127.0.0.1 for a receiver on your machine)',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

const IssuedCertificate = Type.Object({
  certificate: Type.String({ description: 'The QSealC, PEM' }),
  serialNumber: Type.String(),
  keyId: Type.String({ description: 'The keyId to put in the Signature header' }),
  validTo: Type.String({ format: 'date-time' }),
  caCertificate: Type.String({ description: 'The sandbox CA, PEM' }),
});

/**
 * `POST /sandbox/tpp-certificates` (sandbox mode only): issues a QSealC from the sandbox CA for
 * a public key, for TPPs that use a remote sandbox. Not signed, since the caller has no
 * certificate yet; a key rotation is signed with the id's current certificate (see the desk).
 */
export const tppCertificateRoutes: FastifyPluginAsyncTypebox<{ ca: SandboxCa; desk: TppCertificateDesk }> = async (app, { ca, desk }) => {
  app.post(
    '/tpp-certificates',
    {
      schema: {
        operationId: 'issueSandboxQsealc',
        tags: ['Sandbox'],
        summary: 'Issue a sandbox QSealC for a public key',
        body: CertificateRequest,
        response: { 201: IssuedCertificate, ...signedErrorResponses() },
        description:
          'An organisation id is bound to the first public key certified for it. The same key may be certified again; another key needs this request signed (as any /v1 request) with a current certificate of that id, else 409 RESOURCE_EXISTS and nothing is issued.',
      },
    },
    async (request, reply) => {
      const publicKey = readRsaPublicKey(request.body.publicKey);
      const issued = await desk.issue({
        organizationIdentifier: request.body.organizationIdentifier,
        name: request.body.name,
        roles: request.body.roles,
        domains: request.body.domains ?? [],
        publicKey,
        signedBy: request.ctx.tpp,
      });
      return reply.code(201).send({
        certificate: issued.certificatePem,
        serialNumber: issued.serialNumber,
        keyId: issued.keyId,
        validTo: issued.notAfter.toISOString(),
        caCertificate: ca.certificatePem,
      });
    },
  );
};

/** A PEM public key only: Node would also derive one from a private key or a certificate, and a TPP must never send its private key. */
const PUBLIC_KEY_PEM = /^\s*-----BEGIN (RSA )?PUBLIC KEY-----/;

function readRsaPublicKey(pem: string): KeyObject {
  let key: KeyObject;
  try {
    if (!PUBLIC_KEY_PEM.test(pem) || pem.includes('PRIVATE KEY')) {
      throw new Error('not a PEM public key');
    }
    key = createPublicKey(pem);
  } catch {
    throw new AppError('FORMAT_ERROR', {
      detail: localized('publicKey is not a PEM public key', 'publicKey er ikke en offentlig nøkkel i PEM'),
      path: 'publicKey',
    });
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (key.asymmetricKeyType !== 'rsa' || bits < 2048) {
    throw new AppError('FORMAT_ERROR', {
      detail: localized('publicKey must be an RSA key of at least 2048 bits', 'publicKey må være en RSA-nøkkel på minst 2048 biter'),
      path: 'publicKey',
    });
  }
  return key;
}
