import { PSD2_ROLES, type TppIdentity } from './tpp-identity.js';

/**
 * The TPP an unsigned request acts as when XS2A_REQUIRE_SIGNATURE=false (sandbox mode only), so
 * tools such as Postman can explore the sandbox without a certificate. It holds every PSD2 role.
 */
export const SANDBOX_TPP: TppIdentity = {
  id: 'PSDNO-FSA-SANDBOXTPP',
  name: 'Unsigned sandbox TPP',
  roles: PSD2_ROLES,
  ncaId: 'NO-FSA',
  certificateFingerprint: 'unsigned',
  certificateSerial: 'unsigned',
  certificateIssuer: 'unsigned',
  publicKeyFingerprint: 'unsigned',
};
