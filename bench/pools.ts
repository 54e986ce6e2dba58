import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { signRequest, type SigningCredentials } from '../src/client/request-signer.js';
import { credentialsFromPem } from '../src/client/tpp-credentials.js';
import { SandboxCa } from '../src/security/certificates/sandbox-ca.js';
import type { Psd2Role } from '../src/security/tpp-identity.js';

/** One ready-to-send request: the load generator only copies bytes, it never signs. */
export interface PreparedRequest {
  readonly method: 'PUT' | 'POST' | 'GET' | 'DELETE';
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

export interface BenchTpp {
  readonly organizationIdentifier: string;
  /** The path form of the id (without the `PSD` prefix), as TPPs use it in URLs. */
  readonly pathId: string;
  readonly credentials: SigningCredentials;
  readonly publicKey: KeyObject;
}

/**
 * A TPP with a QSealC from the sandbox CA the server itself created in `dataDir`, so the server
 * trusts it exactly as it trusts `nordic-xs2a tpp init` output.
 */
export async function issueBenchTpp(dataDir: string, organizationIdentifier: string, roles: readonly Psd2Role[]): Promise<BenchTpp> {
  const ca = await SandboxCa.open(dataDir);
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const issued = await ca.issueQsealc({ organizationIdentifier, name: `${organizationIdentifier} Bench AS`, roles, publicKey });
  const credentials = credentialsFromPem(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), issued.certificatePem);
  return { organizationIdentifier, pathId: organizationIdentifier.replace(/^PSD/, ''), credentials, publicKey };
}

export interface PoolSpec {
  readonly size: number;
  readonly method: PreparedRequest['method'];
  readonly path: (n: number) => string;
  readonly body: (n: number) => unknown;
}

/**
 * Signs `size` distinct requests (own X-Request-ID, body and Digest; Date = now) up front. RSA
 * signing costs ~0.3 ms, so doing it during the run would make the load generator the bottleneck.
 */
export function signedPool(spec: PoolSpec, credentials: SigningCredentials): PreparedRequest[] {
  const pool: PreparedRequest[] = [];
  for (let n = 0; n < spec.size; n++) {
    const path = spec.path(n);
    const body = Buffer.from(JSON.stringify(spec.body(n)));
    const headers = signRequest(
      { method: spec.method, path, body, headers: { 'content-type': 'application/json', accept: 'application/json' } },
      credentials,
    );
    pool.push({ method: spec.method, path, headers, body });
  }
  return pool;
}

/** The body of the n-th contact-information request, distinct per request. */
export const contactBody = (n: number) => ({ email: `psd2-${n}@tpp.example` });
