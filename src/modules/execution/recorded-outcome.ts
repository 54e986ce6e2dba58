/** The bank's answer for one submitted payment (or bulk item), as recorded. */
export type RecordedOutcome =
  | { readonly kind: 'executed' }
  | { readonly kind: 'rejected'; readonly reason: string }
  | { readonly kind: 'pending-funds' }
  | { readonly kind: 'accepted' };
