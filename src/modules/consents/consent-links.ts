import { creationLinks, type StartedWithResource } from '../authorisations/authorisation-links.js';

/** Hyperlinks handed to TPPs for a consent. */
export function consentPath(consentId: string): string {
  return `/v1/consents/${encodeURIComponent(consentId)}`;
}

export function consentLinks(publicUrl: string, consentId: string) {
  const self = `${publicUrl}${consentPath(consentId)}`;
  return { self: { href: self }, status: { href: `${self}/status` } };
}

/** The links of a consent's creation: scaRedirect and scaStatus when its authorisation started with it, else startAuthorisation. */
export function consentCreationLinks(publicUrl: string, consentId: string, started: StartedWithResource | undefined) {
  return creationLinks(`${publicUrl}${consentPath(consentId)}`, started);
}
