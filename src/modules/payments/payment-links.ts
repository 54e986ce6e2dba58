import { creationLinks, type StartedWithResource } from '../authorisations/authorisation-links.js';
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

/** The links of a payment creation (docs/design.md §2): see {@link creationLinks}. */
export function initiationLinks(
  publicUrl: string,
  service: PaymentService,
  product: string,
  paymentId: string,
  started: StartedWithResource | undefined,
) {
  return creationLinks(`${publicUrl}${paymentPath(service, product, paymentId)}`, started);
}

/** The cancellation authorisation a DELETE of an approved payment asks the TPP to start. */
export function cancellationLinks(publicUrl: string, service: PaymentService, product: string, paymentId: string) {
  const links = paymentLinks(publicUrl, service, product, paymentId);
  return { ...links, startAuthorisation: { href: `${links.self.href}/cancellation-authorisations` } };
}
