/**
 * @peculiar/x509 set up once: it needs the Reflect metadata polyfill and a WebCrypto provider.
 * Import x509 from here, never from the package directly.
 */
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

export { x509 };
