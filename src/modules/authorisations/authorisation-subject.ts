import type { DbOrTx } from '../../db/create-db.js';
import type { ActorType } from '../audit/audit-event.js';
import type { Localized } from '../../domain/localized.js';
import type { Authorisation, AuthorisationPurpose } from './authorisation.model.js';

/** Who caused a change, for the audit trail. */
export interface AuditActor {
  readonly type: ActorType;
  readonly id: string;
}

/** One line of the confirmation page: what is being approved, field by field. */
export interface ConfirmationLine {
  readonly label: Localized;
  readonly value: Localized;
}

/**
 * Options the PSU ticks on the confirmation page (the accounts to share in a bank-offered consent):
 * the ticked values are handed to {@link AuthorisationSubject.prepareApproval}.
 */
export interface ConfirmationChoices {
  readonly legend: Localized;
  readonly options: readonly { readonly value: string; readonly label: Localized }[];
}

/** What the PSU sees before approving: exactly what the approval does. */
export interface Confirmation {
  /** "Approve payment", "Cancel payment", … */
  readonly heading: Localized;
  readonly lines: readonly ConfirmationLine[];
  /** Sub-lists, e.g. the payments of a bulk payment, each with its own lines. */
  readonly items?: readonly { readonly title: Localized; readonly lines: readonly ConfirmationLine[] }[];
  /** What the PSU picks before approving, when the resource leaves the choice to the PSU. */
  readonly choices?: ConfirmationChoices;
}

/** The bank's answer to a PSU's approval: the effect to apply, or why it cannot be. */
export type Approval =
  | {
      readonly ok: true;
      /**
       * Applies the effect (a payment's status change) in the approving transaction; may answer
       * work to do once that transaction has committed (handing a payment to the bank), which
       * the flow runs before it answers the PSU and which never throws.
       */
      readonly apply: (trx: DbOrTx, at: string) => Promise<void | (() => Promise<void>)>;
    }
  | {
      readonly ok: false;
      readonly reason: Localized;
      /** False when the resource stays as it is (the same approver twice, a cancellation refused). */
      readonly rejectsResource: boolean;
    };

/**
 * What an authorisation authorises, seen from the SCA flow: the module that owns the resource
 * (payments, signing baskets, consents) implements this, so the flow never reaches into its tables.
 */
export interface AuthorisationSubject {
  /** What the confirmation page lists. */
  confirmation(authorisation: Authorisation): Promise<Confirmation>;
  /**
   * The bank's checks when the PSU approves (rights, limits, the resource's status). Runs outside
   * any transaction, because the core-banking port reads through its own connection. `chosen`: the
   * values of the {@link Confirmation.choices} the PSU ticked (empty when the page offered none).
   */
  prepareApproval(authorisation: Authorisation, psuId: string, chosen: readonly string[]): Promise<Approval>;
  /** What the PSU reads once the approval is done (e.g. that another approver must approve too). */
  approvedMessage(authorisation: Authorisation): Promise<Localized>;
  /** What a failed authorisation does to the resource, in the failing transaction (a payment: RJCT). */
  onFailure(trx: DbOrTx, authorisation: Authorisation, reason: Localized, at: string, actor: AuditActor): Promise<void>;
}

export type AuthorisationSubjects = Readonly<Record<Exclude<AuthorisationPurpose, 'psu-login'>, AuthorisationSubject>>;
