/**
 * Scenario (i): Prism 5 (`prism mock`, the mock server a TPP would use if our sandbox were not worth
 * it) on the Berlin Group OpenAPI file the tests vendor, started with its defaults (static
 * examples, request validation, info logging to its output, here a file).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, startChild, waitForHttp, type Child } from './processes.js';

/** The Berlin Group NextGenPSD2 1.3.12 OpenAPI file (CC BY 4.0; test/fixtures/SOURCES.md). */
export const BERLIN_GROUP_OPENAPI = 'test/fixtures/berlin-group/psd2-api_v1.3.12-2022-07-06.yaml';

/**
 * Where Prism takes the payment. The file's `payment-product` is an enum without the Norwegian
 * profile's products, so Prism answers 400 for `norwegian-domestic-credit-transfers`; the same
 * body (and JSON schema) on `sepa-credit-transfers` is the same operation, `initiatePayment`.
 */
export const PRISM_PAYMENT_PATH = '/v1/payments/sepa-credit-transfers';

/**
 * Headers Prism requires of initiatePayment beyond what the subject sends: the file makes
 * PSU-IP-Address mandatory (our server takes its absence as the PSU not being present).
 */
export const PRISM_EXTRA_HEADERS = { 'psu-ip-address': '192.0.2.10' } as const;

function prismEntry(repo: string): string {
  return join(repo, 'node_modules/@stoplight/prism-cli/dist/index.js');
}

export function prismAvailable(repo: string): boolean {
  return existsSync(prismEntry(repo));
}

/** Starts `prism mock` on a free port and waits until it answers (it parses the 0.5 MB file first). */
export async function startPrism(
  repo: string,
  workDir: string,
  env: NodeJS.ProcessEnv,
): Promise<{ child: Child; baseUrl: string; args: string[]; startMs: number }> {
  const port = await freePort();
  const args = ['mock', '-h', '127.0.0.1', '-p', String(port), join(repo, BERLIN_GROUP_OPENAPI)];
  const started = Date.now();
  const child = startChild('prism', process.execPath, [prismEntry(repo), ...args], { env, cwd: repo, logFile: join(workDir, 'prism.log') });
  // Any HTTP answer (Prism's 404 for an unknown path) means it listens.
  await waitForHttp(child, `http://127.0.0.1:${port}/`, () => true, 120_000);
  return {
    child,
    baseUrl: `http://127.0.0.1:${port}`,
    args: ['prism', ...args.slice(0, -1), BERLIN_GROUP_OPENAPI],
    startMs: Date.now() - started,
  };
}
