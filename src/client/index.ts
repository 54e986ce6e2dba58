/**
 * The TPP SDK, `import { TppClient, readCredentials } from 'nordic-xs2a/client'`: a client that
 * signs every request as a Berlin Group TPP does (draft-cavage-10 with the QSealC), the
 * credentials `nordic-xs2a tpp init` writes, the request signer on its own, and a driver that
 * plays the PSU on a sandbox's SCA redirect pages without a browser.
 */
export { TppClient, type InitiationOptions, type ReadOptions } from './tpp-client.js';
export type { CallOptions, TppResponse } from './tpp-call.js';
export { CREDENTIAL_FILES, credentialsFromPem, keyIdOf, readCredentials } from './tpp-credentials.js';
export { certificateHeader, signRequest, type SignOptions, type SigningCredentials, type UnsignedRequest } from './request-signer.js';
export { PsuIdRequiredError, walkScaRedirect, type PsuActions, type PsuJourney } from './sca-redirect-driver.js';
export { CookieJar } from './cookie-jar.js';
export type * from './wire-types.js';
