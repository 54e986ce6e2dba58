/**
 * Which headers a Berlin Group signature must cover (Norwegian profile, research/signing.md §2):
 * always `date`, `digest` and `x-request-id`, and every header that steers the PSU or names it
 * whenever the request carries one. Shared by the verifier and the TPP SDK's signer.
 */
export const ALWAYS_SIGNED: readonly string[] = ['date', 'digest', 'x-request-id'];

export const SIGNED_WHEN_PRESENT: readonly string[] = ['psu-id', 'psu-corporate-id', 'tpp-redirect-uri', 'tpp-nok-redirect-uri'];
