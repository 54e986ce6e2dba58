import type { PaymentService } from './payment-products.js';

/** Hyperlinks handed to TPPs for a payment; every one points at a route this server has. */
export function paymentPath(service: PaymentService, product: string, paymentId: string): string {
  return `/v1/${service}/${product}/${encodeURIComponent(paymentId)}`;
}

export function paymentLinks(publicUrl: string, service: PaymentService, product: string, paymentId: string) {
  const self = `${publicUrl}${paymentPath(service, product, paymentId)}`;
  return {
    self: { href: self },
    status: { href: `${self}/status` },
  };
}

/** The cancellation authorisation a DELETE of an approved payment asks the TPP to start. */
export function cancellationLinks(publicUrl: string, service: PaymentService, product: string, paymentId: string) {
  const links = paymentLinks(publicUrl, service, product, paymentId);
  return { ...links, startAuthorisation: { href: `${links.self.href}/cancellation-authorisations` } };
}
