import type { PaymentService } from './payment-products.js';

/** Hyperlinks handed to TPPs for a payment; every one points at a route this server has. */
export function paymentPath(service: PaymentService, product: string, paymentId: string): string {
  return `/v1/${service}/${product}/${encodeURIComponent(paymentId)}`;
}

/** The sub-resource of a payment's authorisations or of its cancellation authorisations. */
export type AuthorisationKind = 'authorisations' | 'cancellation-authorisations';

export function paymentLinks(publicUrl: string, service: PaymentService, product: string, paymentId: string) {
  const self = `${publicUrl}${paymentPath(service, product, paymentId)}`;
  return {
    self: { href: self },
    status: { href: `${self}/status` },
  };
}

/** Where the TPP reads an authorisation's scaStatus. */
export function scaStatusHref(
  publicUrl: string,
  service: PaymentService,
  product: string,
  paymentId: string,
  kind: AuthorisationKind,
  authorisationId: string,
): string {
  return `${publicUrl}${paymentPath(service, product, paymentId)}/${kind}/${encodeURIComponent(authorisationId)}`;
}

/**
 * The links of a payment creation (DESIGN §2): with an authorisation started implicitly, where to
 * send the PSU (`scaRedirect`) and where to follow it (`scaStatus`); else `startAuthorisation`,
 * which the TPP posts to when it is ready (explicit start, or several approvers).
 */
export function initiationLinks(
  publicUrl: string,
  service: PaymentService,
  product: string,
  paymentId: string,
  started: { readonly authorisationId: string; readonly scaRedirect: string } | undefined,
) {
  const links = paymentLinks(publicUrl, service, product, paymentId);
  if (!started) {
    return { ...links, startAuthorisation: { href: `${links.self.href}/authorisations` } };
  }
  return {
    scaRedirect: { href: started.scaRedirect },
    ...links,
    scaStatus: { href: scaStatusHref(publicUrl, service, product, paymentId, 'authorisations', started.authorisationId) },
  };
}

/** The cancellation authorisation a DELETE of an approved payment asks the TPP to start. */
export function cancellationLinks(publicUrl: string, service: PaymentService, product: string, paymentId: string) {
  const links = paymentLinks(publicUrl, service, product, paymentId);
  return { ...links, startAuthorisation: { href: `${links.self.href}/cancellation-authorisations` } };
}
