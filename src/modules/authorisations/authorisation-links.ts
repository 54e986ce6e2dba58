/** An authorisation started with the resource: its id and the page the PSU is sent to. */
export interface StartedWithResource {
  readonly authorisationId: string;
  readonly scaRedirect: string;
}

/** Where the TPP reads one authorisation's scaStatus: under the resource's `authorisations`. */
export function authorisationHref(resourceHref: string, authorisationId: string, kind = 'authorisations'): string {
  return `${resourceHref}/${kind}/${encodeURIComponent(authorisationId)}`;
}

/**
 * The links of a resource just created that the PSU must authorise (a payment, a signing basket;
 * docs/design.md §2): with an authorisation started implicitly, where to send the PSU (`scaRedirect`) and
 * where to follow it (`scaStatus`); else `startAuthorisation`, which the TPP posts to when it is
 * ready (explicit start, e.g. to collect payments into a basket).
 */
export function creationLinks(resourceHref: string, started: StartedWithResource | undefined) {
  const own = { self: { href: resourceHref }, status: { href: `${resourceHref}/status` } };
  if (!started) {
    return { ...own, startAuthorisation: { href: `${resourceHref}/authorisations` } };
  }
  return {
    scaRedirect: { href: started.scaRedirect },
    ...own,
    scaStatus: { href: authorisationHref(resourceHref, started.authorisationId) },
  };
}
