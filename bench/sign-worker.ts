/**
 * A worker thread that signs part of a request pool, so a pool of 100 000+ distinct signed
 * requests is ready in seconds on both cores (RSA signing costs ~0.3 ms each).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { signRequest } from '../src/client/request-signer.js';
import { credentialsFromPem } from '../src/client/tpp-credentials.js';

export interface SignJob {
  readonly method: 'PUT' | 'POST' | 'GET' | 'DELETE';
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly bodies: readonly string[];
  readonly privateKeyPem: string;
  readonly certificatePem: string;
}

const job = workerData as SignJob;
const credentials = credentialsFromPem(job.privateKeyPem, job.certificatePem);
const signed = job.bodies.map((text) =>
  signRequest(
    {
      method: job.method,
      path: job.path,
      body: Buffer.from(text),
      headers: { ...job.headers },
    },
    credentials,
  ),
);
parentPort?.postMessage(signed);
