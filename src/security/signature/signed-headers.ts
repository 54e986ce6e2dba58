/**
 * Which headers a Berlin Group signature must cover: exactly the requirement's rule (Norwegian
 * profile, docs/design.md §5, docs/design.md §5). Always `date`, `digest` and `x-request-id`, and
 * `psu-id`, `psu-corporate-id` and `tpp-redirect-uri` whenever the request carries them. No other
 * header is required: a conformant TPP that leaves `tpp-nok-redirect-uri` or `(request-target)`
 * unsigned is served, and whatever else it signs is verified.
 */
export const ALWAYS_SIGNED: readonly string[] = ['date', 'digest', 'x-request-id'];

export const SIGNED_WHEN_PRESENT: readonly string[] = ['psu-id', 'psu-corporate-id', 'tpp-redirect-uri'];

/**
 * Headers the project's own TPP SDK signs as well when it sends them, beyond what is required:
 * they steer the PSU too, so a careful TPP binds them.
 */
export const ALSO_SIGNED_BY_SDK: readonly string[] = ['tpp-nok-redirect-uri'];
