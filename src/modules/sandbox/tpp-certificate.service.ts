import type { KeyObject } from 'node:crypto';
import { withTransaction, type Db } from '../../db/create-db.js';
import { localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';
import { publicKeyFingerprint } from '../../security/certificates/tpp-certificate.js';
import type { IssuedQsealc, SandboxCa } from '../../security/certificates/sandbox-ca.js';
import type { Psd2Role, TppIdentity } from '../../security/tpp-identity.js';
import { keyBindingRepository } from './tpp-key-binding.repository.js';

export interface CertificateOrder {
  readonly organizationIdentifier: string;
  readonly name: string;
  readonly roles: readonly Psd2Role[];
  /** Host names or IP addresses the certificate secures (subjectAltName). */
  readonly domains?: readonly string[];
  readonly publicKey: KeyObject;
  /** Who signed the request, when it was signed: proves the current key of an id for a rotation. */
  readonly signedBy: TppIdentity | undefined;
}

export interface TppCertificateDesk {
  issue(order: CertificateOrder): Promise<IssuedQsealc>;
}

/**
 * The sandbox certificate desk (docs/design.md §5). An organisation id is bound to the first public key
 * it is certified for. The same key may be certified again (a new certificate, e.g. other roles;
 * only the key's holder can use it). Another key needs the request signed with a current
 * certificate of that id (key rotation); otherwise 409 and nothing is issued, so nobody can
 * become a TPP that already exists. An id a TPP already used with a certificate from elsewhere
 * (the CLI's local CA) counts as taken the same way.
 */
export function createTppCertificateDesk(
  db: Db,
  ca: SandboxCa,
  now: () => Date,
  isKnownTpp: (id: string) => Promise<boolean>,
): TppCertificateDesk {
  return {
    async issue(order) {
      const id = order.organizationIdentifier;
      const key = publicKeyFingerprint(order.publicKey);
      const at = now().toISOString();
      // Signed with a certificate of this very id, issued for the key the desk knows (or, before
      // the desk knew the id, any certificate the bank trusts for it).
      const provenBy = order.signedBy?.id === id ? order.signedBy.publicKeyFingerprint : undefined;
      // Asked before the transaction, which holds SQLite's one connection.
      const knownElsewhere = provenBy === undefined && (await isKnownTpp(id));
      return withTransaction(db, async (trx) => {
        const binding = await keyBindingRepository.find(trx, id);
        if (!binding) {
          if (knownElsewhere) throw taken(id);
          if (!(await keyBindingRepository.bind(trx, { organizationIdentifier: id, publicKeySha256: key }, at))) throw taken(id);
        } else if (binding.publicKeySha256 !== key) {
          if (provenBy !== binding.publicKeySha256) throw taken(id);
          if (!(await keyBindingRepository.rotate(trx, binding, key, at))) throw taken(id);
        }
        return ca.issueQsealc(
          { organizationIdentifier: id, name: order.name, roles: order.roles, publicKey: order.publicKey, domains: order.domains },
          now(),
        );
      });
    },
  };
}

function taken(id: string): AppError {
  return new AppError('RESOURCE_EXISTS', {
    path: 'organizationIdentifier',
    detail: localized(
      `${id} is already bound to another key. To rotate its key, sign this request with the current certificate of ${id}; otherwise choose an organisation id of your own`,
      `${id} er allerede knyttet til en annen nøkkel. For å bytte nøkkel, signer denne forespørselen med det gjeldende sertifikatet til ${id}; ellers velg en egen organisasjons-id`,
    ),
  });
}
