import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CREDENTIAL_FILES } from '../client/tpp-credentials.js';
import { TppClient } from '../client/tpp-client.js';
import { loadConfig } from '../config/load-config.js';
import { ORGANIZATION_IDENTIFIER, SandboxCa } from '../security/certificates/sandbox-ca.js';
import { isPsd2Role, type Psd2Role } from '../security/tpp-identity.js';
import { credentialsIn, httpUrl, isHttpUrl, parseCommandArgs } from './command-line.js';
import { errorLines, reportErrorAnswer } from './error-answer.js';
import { UsageError } from './usage-error.js';

/**
 * `nordic-xs2a tpp init`: an RSA key and a QSealC for a TPP, from the local sandbox CA (the data
 * directory the server uses) or from a running sandbox's `POST /sandbox/tpp-certificates`.
 */
export async function tppInitCommand(args: readonly string[]): Promise<number> {
  const { values } = parseCommandArgs('tpp init', args, {
    options: {
      org: { type: 'string' },
      name: { type: 'string' },
      roles: { type: 'string', default: 'PSP_PI,PSP_AI' },
      out: { type: 'string', default: './tpp' },
      server: { type: 'string' },
      'rotate-with': { type: 'string' },
      domains: { type: 'string', default: '' },
    },
  });
  const org = values.org ?? '';
  // Hosts the certificate secures: where the bank may send status notifications (docs/notifications.md).
  const domains = values.domains
    .split(',')
    .map((domain) => domain.trim())
    .filter(Boolean);
  if (!ORGANIZATION_IDENTIFIER.test(org)) {
    throw new UsageError('--org must be an organizationIdentifier such as PSDNO-FSA-123456789', { commands: ['tpp init'] });
  }
  const name = values.name?.trim() || org;
  const roles = values.roles.split(',').map((role) => role.trim());
  const badRole = roles.find((role) => !isPsd2Role(role));
  if (badRole !== undefined || roles.length === 0) {
    throw new UsageError(`--roles takes PSP_AS, PSP_PI, PSP_AI, PSP_IC (comma-separated); "${badRole ?? ''}" is not one`, {
      commands: ['tpp init'],
    });
  }
  const server = values.server === undefined ? undefined : httpUrl('tpp init', '--server', values.server);
  if (values['rotate-with'] !== undefined && server === undefined) {
    throw new UsageError('--rotate-with DIR proves the current key to a running sandbox: give --server URL too', {
      commands: ['tpp init'],
    });
  }
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  let certificatePem: string;
  let keyId: string;
  if (server !== undefined) {
    // A new id is certified unsigned; a key rotation is signed with the id's current credentials.
    const rotateWith = values['rotate-with'];
    const client = new TppClient(server, rotateWith === undefined ? undefined : credentialsIn('--rotate-with', rotateWith));
    const response = await client.post<{ certificate: string; keyId: string }>(
      '/sandbox/tpp-certificates',
      { publicKey: publicKey.export({ type: 'spki', format: 'pem' }), organizationIdentifier: org, name, roles, domains },
      { unsigned: rotateWith === undefined },
    );
    if (response.status === 409) {
      throw new Error(
        `${org} is already taken on ${server}: it is bound to another key.\n` +
          `  - If it is yours, rotate its key by signing with its current credentials: add --rotate-with DIR (the directory holding them).\n` +
          `  - Otherwise choose an organisation id of your own with --org.`,
      );
    }
    if (response.status !== 201) {
      throw new Error(`the sandbox refused the certificate request: ${errorLines(response).join('; ')}`);
    }
    certificatePem = response.body.certificate;
    keyId = response.body.keyId;
  } else {
    const ca = await SandboxCa.open(loadConfig().dataDir);
    const issued = await ca.issueQsealc({ organizationIdentifier: org, name, roles: roles as Psd2Role[], publicKey, domains });
    certificatePem = issued.certificatePem;
    keyId = issued.keyId;
  }
  mkdirSync(values.out, { recursive: true });
  writeFileSync(join(values.out, CREDENTIAL_FILES.privateKey), privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  writeFileSync(join(values.out, CREDENTIAL_FILES.certificate), certificatePem);
  process.stdout.write(
    `TPP ${org} (${roles.join(', ')})\n  key:         ${join(values.out, CREDENTIAL_FILES.privateKey)}\n  certificate: ${join(values.out, CREDENTIAL_FILES.certificate)}\n  keyId:       ${keyId}\n`,
  );
  return 0;
}

/** `nordic-xs2a tpp call`: signs a request with the TPP's QSealC, sends it, prints the answer. */
export async function tppCallCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('tpp call', args, {
    options: {
      body: { type: 'string' },
      header: { type: 'string', multiple: true, default: [] },
      tpp: { type: 'string', default: './tpp' },
      server: { type: 'string' },
      print: { type: 'string', multiple: true },
      expect: { type: 'string' },
    },
    allowPositionals: true,
  });
  const [method, target] = positionals;
  const href = target !== undefined && isHttpUrl(target) ? new URL(target) : undefined;
  if (!method || !target || (!target.startsWith('/') && !href)) {
    throw new UsageError('tpp call needs METHOD and a PATH starting with / (or an href from _links: http://host:port/v1/…)', {
      commands: ['tpp call'],
    });
  }
  const expected = values.expect === undefined ? undefined : Number(values.expect);
  if (expected !== undefined && !(Number.isInteger(expected) && expected >= 100 && expected <= 599)) {
    throw new UsageError(`--expect takes an HTTP status such as 401, not "${values.expect}"`, { commands: ['tpp call'] });
  }
  const headers: Record<string, string> = {};
  for (const header of values.header) {
    const colon = header.indexOf(':');
    if (colon <= 0) {
      throw new UsageError(`--header "${header}" must be "Name: value"`, { commands: ['tpp call'] });
    }
    headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
  }
  const given = values.server === undefined ? undefined : httpUrl('tpp call', '--server', values.server);
  const body = values.body === undefined ? undefined : readFileSync(values.body === '-' ? 0 : values.body);
  // An href names its server; a path goes to --server, or to this machine's configured server.
  const server = href?.origin ?? given ?? loadConfig().publicUrl;
  const client = new TppClient(server, credentialsIn('--tpp', values.tpp));
  const response = await client.call(method.toUpperCase(), target, { headers, ...(body ? { body } : {}) }).catch((error: unknown) => {
    throw new Error(`cannot reach ${server}: ${(error as Error).message} (is the server running?)`);
  });
  const ok = expected === undefined ? response.status < 400 : response.status === expected;
  if (values.print !== undefined) {
    // One line per member, in the order asked (an object or array as JSON), for shell scripts.
    for (const path of values.print) {
      const member = memberOf(response.body, path);
      if (member !== undefined) process.stdout.write(`${typeof member === 'string' ? member : JSON.stringify(member)}\n`);
      else if (ok) throw new Error(`the answer (HTTP ${response.status}) has no member ${path}`);
    }
  } else {
    process.stdout.write(`HTTP ${response.status}\n`);
    for (const name of [
      'x-request-id',
      'location',
      'aspsp-sca-approach',
      'aspsp-notification-support',
      'aspsp-notification-content',
      'content-language',
    ]) {
      const value = response.headers[name];
      if (value !== undefined) process.stdout.write(`${name}: ${String(value)}\n`);
    }
    process.stdout.write('\n');
    process.stdout.write(typeof response.body === 'string' ? `${response.body}\n` : `${JSON.stringify(response.body, null, 2)}\n`);
  }
  if (ok) return 0;
  // What the error body says, a line per message, where a script's log shows it.
  const suffix = expected === undefined ? '' : ` (expected ${expected})`;
  if (response.status >= 400) return reportErrorAnswer(response, suffix);
  process.stderr.write(`nordic-xs2a: HTTP ${response.status}${suffix}\n`);
  return 1;
}

/** A member of a JSON answer by its dotted path (`_links.scaRedirect.href`, `payments.0`); undefined when absent. */
function memberOf(body: unknown, path: string): unknown {
  let value: unknown = body;
  for (const name of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, name)) return undefined;
    value = (value as Record<string, unknown>)[name];
  }
  return value;
}
