import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { Worker } from 'node:worker_threads';
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
  /** Extra request headers, signed with the rest (e.g. PSU-ID). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The headers every pooled request carries besides the signature's own. */
function baseHeaders(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return { 'content-type': 'application/json', accept: 'application/json', ...extra };
}

/**
 * Signs `size` distinct requests (own X-Request-ID, body and Digest; Date = now) up front. RSA
 * signing costs ~0.3 ms, so doing it during the run would make the load generator the bottleneck.
 */
export function signedPool(spec: PoolSpec, credentials: SigningCredentials): PreparedRequest[] {
  const pool: PreparedRequest[] = [];
  for (let n = 0; n < spec.size; n++) {
    const path = spec.path(n);
    const body = Buffer.from(bodyText(spec, n));
    const headers = signRequest({ method: spec.method, path, body, headers: baseHeaders(spec.headers) }, credentials);
    pool.push({ method: spec.method, path, headers, body });
  }
  return pool;
}

/** The n-th request's body as sent: JSON, or nothing for a GET. */
function bodyText(spec: Pick<PoolSpec, 'method' | 'body'>, n: number): string {
  return spec.method === 'GET' ? '' : JSON.stringify(spec.body(n));
}

/** The body of the n-th contact-information request, distinct per request. */
export const contactBody = (n: number) => ({ email: `psd2-${n}@tpp.example` });

/**
 * The n-th NDCT initiation from `debtorBban`: distinct remittance per request, so no two are
 * logical duplicates of each other (which the server would refuse).
 */
export const ndctBody = (debtorBban: string) => (n: number) => ({
  debtorAccount: { bban: debtorBban, currency: 'NOK' },
  instructedAmount: { currency: 'NOK', amount: `${100 + (n % 900)}.${String(n % 100).padStart(2, '0')}` },
  creditorAccount: { bban: '86011117947', currency: 'NOK' },
  creditorName: 'Bench Mottaker AS',
  creditorAddress: { townName: 'Oslo', country: 'NO' },
  remittanceInformationUnstructured: `Faktura ${n}`,
});

/** The n-th payment created for a basket: another creditor than {@link ndctBody}'s, so the two never collide as duplicates. */
export const basketPaymentBody = (debtorBban: string) => (n: number) => ({
  ...ndctBody(debtorBban)(n),
  creditorName: 'Bench Kurv AS',
  remittanceInformationUnstructured: `Kurv ${n}`,
});

const SIGN_WORKER_BOOTSTRAP = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(
  new URL('./sign-worker.ts', import.meta.url).href,
)}); });`;

/**
 * The same pool as {@link signedPool}, signed on `threads` worker threads. Used for the measured
 * run, which needs one distinct request (own X-Request-ID) per request sent: a repeated
 * X-Request-ID would be answered from the idempotency store, a cheaper path than the real one.
 */
export async function signedPoolInParallel(
  spec: Omit<PoolSpec, 'path'> & { readonly path: string },
  credentials: SigningCredentials,
  threads = 2,
): Promise<PreparedRequest[]> {
  const bodies = Array.from({ length: spec.size }, (_, n) => bodyText(spec, n));
  const share = Math.ceil(bodies.length / threads);
  const parts = await Promise.all(
    Array.from({ length: threads }, (_, t) => {
      // The worker runs TypeScript too: Node 20 does not hand the parent's tsx loader to a worker's
      // entry module, so a one-line script registers tsx and then imports the worker.
      const worker = new Worker(SIGN_WORKER_BOOTSTRAP, {
        eval: true,
        workerData: {
          method: spec.method,
          path: spec.path,
          headers: baseHeaders(spec.headers),
          bodies: bodies.slice(t * share, (t + 1) * share),
          privateKeyPem: credentials.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
          certificatePem: credentials.certificate,
        },
      });
      return new Promise<Record<string, string>[]>((resolve, reject) => {
        worker.once('message', (headers: Record<string, string>[]) => resolve(headers));
        worker.once('error', reject);
      }).finally(() => void worker.terminate());
    }),
  );
  return parts.flat().map((headers, n) => ({ method: spec.method, path: spec.path, headers, body: Buffer.from(bodies[n]!) }));
}
