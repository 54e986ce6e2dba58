/**
 * The RSA keys a first start makes, begun ahead of need (src/security/rsa-key-pairs.ts): the
 * sandbox CA and the notification seal are made from the pair started for their key file, a pair
 * is used once, and nothing is started for a key already kept.
 */
import { createPublicKey, webcrypto, X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bankSealFiles, sandboxCaFiles } from '../../src/config/data-dir.js';
import { openBankSeal } from '../../src/modules/notifications/bank-seal.js';
import { SandboxCa } from '../../src/security/certificates/sandbox-ca.js';
import { rsaKeyPairFor, startRsaKeyPair } from '../../src/security/rsa-key-pairs.js';

const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'xs2a-keys-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const spki = async (key: webcrypto.CryptoKey) => Buffer.from(await webcrypto.subtle.exportKey('spki', key));
const spkiOfPem = (pem: string) => createPublicKey(pem).export({ type: 'spki', format: 'der' });

describe('RSA key pairs started ahead', () => {
  it('gives the pair started for a key file once; the next one asked for is new', async () => {
    const file = join(dataDir(), 'a-key.pem');
    startRsaKeyPair(file);
    startRsaKeyPair(file); // started once, not twice
    const first = await rsaKeyPairFor(file);
    const second = await rsaKeyPairFor(file);
    expect(first.privateKey.algorithm).toMatchObject({ name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048 });
    expect(await spki(second.publicKey)).not.toEqual(await spki(first.publicKey));
  });

  it('starts nothing for a key file that is there', () => {
    const dir = dataDir();
    const kept = join(dir, 'kept-key.pem');
    writeFileSync(kept, 'kept');
    const subtle = webcrypto.subtle as { generateKey: (...args: unknown[]) => Promise<unknown> };
    const original = subtle.generateKey;
    let made = 0;
    subtle.generateKey = (...args: unknown[]) => {
      made += 1;
      return original.apply(webcrypto.subtle, args);
    };
    try {
      startRsaKeyPair(kept);
      expect(made).toBe(0);
      startRsaKeyPair(join(dir, 'missing-key.pem'));
      expect(made).toBe(1);
    } finally {
      subtle.generateKey = original;
    }
  });

  it('makes the sandbox CA from the pair started for its key file', async () => {
    const dir = dataDir();
    const files = sandboxCaFiles(dir);
    startRsaKeyPair(files.privateKey);
    // Taken to compare below, then handed back as the one started, as the CA will ask for it.
    const pair = await rsaKeyPairFor(files.privateKey);
    const ca = await withStarted(files.privateKey, pair, () => SandboxCa.open(dir));
    expect(spkiOfPem(ca.certificatePem)).toEqual(await spki(pair.publicKey));
    expect(new X509Certificate(readFileSync(files.certificate)).publicKey.export({ type: 'spki', format: 'der' })).toEqual(
      await spki(pair.publicKey),
    );
  });

  it('makes the generated notification seal from the pair started for its key file', async () => {
    const dir = dataDir();
    const files = bankSealFiles(dir);
    startRsaKeyPair(files.privateKey);
    const pair = await rsaKeyPairFor(files.privateKey);
    const seal = await withStarted(files.privateKey, pair, () =>
      openBankSeal({ keyFile: undefined, certificateFile: undefined, dataDir: dir, bankName: 'Testbanken' }),
    );
    expect(spkiOfPem(seal.certificatePem)).toEqual(await spki(pair.publicKey));
  });

  it('opens a kept CA without making a key', async () => {
    const dir = dataDir();
    const made = await SandboxCa.open(dir);
    mkdirSync(sandboxCaFiles(dir).dir, { recursive: true });
    startRsaKeyPair(sandboxCaFiles(dir).privateKey); // the file is there: nothing started
    const kept = await SandboxCa.open(dir);
    expect(kept.certificatePem).toBe(made.certificatePem);
  });
});

/**
 * Runs `open` while the pair started for `file` is `pair`: rsa-key-pairs keeps one per file, so
 * the test starts one, takes it to know its public key, and starts the same again by a stand-in
 * generator run once.
 */
async function withStarted<T>(file: string, pair: webcrypto.CryptoKeyPair, open: () => Promise<T>): Promise<T> {
  const subtle = webcrypto.subtle as { generateKey: (...args: unknown[]) => Promise<unknown> };
  const original = subtle.generateKey;
  subtle.generateKey = async () => pair;
  try {
    startRsaKeyPair(file);
  } finally {
    subtle.generateKey = original;
  }
  return open();
}
