import { creationLinks, type StartedWithResource } from '../authorisations/authorisation-links.js';

/** Hyperlinks handed to TPPs for a signing basket; every one points at a route this server has. */
export function basketHref(publicUrl: string, basketId: string): string {
  return `${publicUrl}/v1/signing-baskets/${encodeURIComponent(basketId)}`;
}

/** The 201 of a basket's creation: `scaRedirect` and `scaStatus`, or `startAuthorisation` (explicit start). */
export function basketCreationLinks(publicUrl: string, basketId: string, started: StartedWithResource | undefined) {
  return creationLinks(basketHref(publicUrl, basketId), started);
}

/** The links of a basket read: itself, its status, and where to start an authorisation while one may be. */
export function basketLinks(publicUrl: string, basketId: string, authorisable: boolean) {
  const self = basketHref(publicUrl, basketId);
  return {
    self: { href: self },
    status: { href: `${self}/status` },
    ...(authorisable ? { startAuthorisation: { href: `${self}/authorisations` } } : {}),
  };
}
