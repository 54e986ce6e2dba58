import type { Money } from '../../domain/money.js';
import type { PaymentDocument } from './payment-document.js';
import type { PaymentProduct, PaymentService } from './payment-products.js';
import type { TransactionStatus } from './payment-status.js';
import type { StoredRequestContext } from '../../http/headers/request-headers.js';

/** What every stored payment has, whatever its service. */
export interface PaymentFields {
  readonly id: string;
  readonly tppId: string;
  readonly product: PaymentProduct;
  readonly status: TransactionStatus;
  readonly statusReason: string | undefined;
  readonly fundsAvailable: boolean | undefined;
  readonly requestId: string;
  readonly psuId: string | undefined;
  readonly psuCorporateId: string | undefined;
  readonly debtorAccountId: string;
  readonly currency: string;
  readonly amountMinor: bigint;
  readonly requestedExecutionDate: string | undefined;
  readonly requestContext: StoredRequestContext;
  readonly createdAt: string;
  readonly statusChangedAt: string;
  /** The open signing basket that holds it: then it is approved through the basket only. */
  readonly basketId: string | undefined;
  /** The bank date it first lacked funds in a batch run (ACCP). */
  readonly awaitingFundsSince: string | undefined;
  /** An instant payment's fee, as the bank quoted it at initiation (migration 0019). */
  readonly transactionFee: Money | undefined;
}

/**
 * A stored payment initiation: its `service` with the typed `body` of that service
 * (payment-document.ts), so checking the service narrows the body.
 */
export type Payment<S extends PaymentService = PaymentService> = PaymentFields & PaymentDocument<S>;

export type NewPayment = Omit<
  PaymentFields,
  'statusReason' | 'fundsAvailable' | 'statusChangedAt' | 'basketId' | 'awaitingFundsSince' | 'transactionFee'
> &
  PaymentDocument & {
    readonly logicalKey: string | undefined;
    readonly transactionFee?: Money | undefined;
  };

/** A payment a batch run may execute, as the run's first read lists it. */
export interface DuePayment {
  readonly id: string;
  readonly tppId: string;
  readonly status: TransactionStatus;
  readonly requestedExecutionDate: string | undefined;
}

/** What recording a payment's execution needs of it: where it stands, not what it says. */
export type PaymentState = Pick<PaymentFields, 'id' | 'tppId' | 'product' | 'status' | 'awaitingFundsSince' | 'basketId'>;
