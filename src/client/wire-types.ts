/**
 * The bodies the TPP SDK sends and the answers it reads, typed from the server's own wire schemas
 * (type-only imports: the SDK carries no server code), so a client and the server cannot disagree.
 */
import type { Static } from 'typebox';
import type { Link } from '../http/schemas/common.schemas.js';
import type {
  AuthorisationsResponse,
  ScaStatusResponse,
  StartScaProcessResponse,
} from '../modules/authorisations/authorisation.schemas.js';
import type { PaymentProduct, PaymentService } from '../modules/payments/payment-products.js';
import type {
  BulkNdctBody,
  CbctBody,
  InstantFeeInformationBody,
  InstantFeeInformationResponse,
  NcbctBody,
  NdctBody,
  PaymentCancelResponse,
  PaymentCreatedResponse,
  PaymentStatusResponse,
  PeriodicNdctBody,
  SctBody,
} from '../modules/payments/payment.schemas.js';
import type { PsuAccessToken } from '../modules/psu-access/psu-access.service.js';
import type {
  SigningBasketCreatedResponse,
  SigningBasketResponse,
  SigningBasketStatusResponse,
} from '../modules/signing-baskets/signing-basket.schemas.js';
import type { ContactInformation, ContactInformationResponse } from '../modules/tpps/tpp.schemas.js';
import type {
  AccountBalancesResponse,
  AccountListResponse,
  AccountResponse,
  CardAccountBalancesResponse,
  CardAccountListResponse,
  CardAccountResponse,
} from '../modules/accounts/account.schemas.js';
import type {
  ConsentBody,
  ConsentCreatedResponse,
  ConsentInformationResponse,
  ConsentStatusResponse,
} from '../modules/consents/consent.schemas.js';
import type { FundsConfirmationBody, FundsConfirmationResponse } from '../modules/funds-confirmations/funds-confirmation.schemas.js';

export type {
  BulkNdctBody,
  CbctBody,
  ContactInformation,
  InstantFeeInformationBody,
  NcbctBody,
  NdctBody,
  PaymentProduct,
  PaymentService,
  PeriodicNdctBody,
  SctBody,
};
export type { PsuAccessToken };
export type { ConsentBody, FundsConfirmationBody };

/** A `_links` entry: `href` absolute, as the server hands it out; `TppClient.call` takes it as is. */
export type WireLink = Static<typeof Link>;

/** One payment: the service and product it was initiated under, and its id. */
export interface PaymentRef {
  readonly service: PaymentService;
  readonly product: PaymentProduct;
  readonly paymentId: string;
}

/** The body of each service's initiation. */
export interface PaymentBodies {
  readonly payments: NdctBody | NcbctBody | CbctBody | SctBody;
  readonly 'bulk-payments': BulkNdctBody;
  readonly 'periodic-payments': PeriodicNdctBody;
}

export type ContactInformationAnswer = Static<typeof ContactInformationResponse>;
export type PaymentCreated = Static<typeof PaymentCreatedResponse>;
/** `GET` of a payment: the body as initiated, with its `transactionStatus`. */
export type PaymentWithStatus = Record<string, unknown> & Pick<PaymentCreated, 'transactionStatus'>;
export type PaymentStatus = Static<typeof PaymentStatusResponse>;
/** The Straks fee information: Berlin Group `transactionFees` and `transactionFeeIndicator`. */
export type InstantFeeInformation = Static<typeof InstantFeeInformationResponse>;
/** `DELETE` of a payment: 202 with `startAuthorisation`, or 204 without a body. */
export type PaymentCancellation = Static<typeof PaymentCancelResponse> | '';
export type AuthorisationStarted = Static<typeof StartScaProcessResponse>;
export type AuthorisationList = Static<typeof AuthorisationsResponse>;
export type ScaStatusAnswer = Static<typeof ScaStatusResponse>;
export type SigningBasketCreated = Static<typeof SigningBasketCreatedResponse>;
export type SigningBasket = Static<typeof SigningBasketResponse>;
export type SigningBasketStatus = Static<typeof SigningBasketStatusResponse>;

export type ConsentCreated = Static<typeof ConsentCreatedResponse>;
export type ConsentInformation = Static<typeof ConsentInformationResponse>;
export type ConsentStatusAnswer = Static<typeof ConsentStatusResponse>;
export type AccountList = Static<typeof AccountListResponse>;
export type AccountAnswer = Static<typeof AccountResponse>;
export type AccountBalances = Static<typeof AccountBalancesResponse>;
export type CardAccountList = Static<typeof CardAccountListResponse>;
export type CardAccountAnswer = Static<typeof CardAccountResponse>;
export type CardAccountBalances = Static<typeof CardAccountBalancesResponse>;
export type FundsConfirmation = Static<typeof FundsConfirmationResponse>;

/**
 * What an authorisation belongs to: a payment, the cancellation of a payment
 * (`…/cancellation-authorisations`), a signing basket, or an account information consent.
 */
export type AuthorisationTarget =
  PaymentRef | (PaymentRef & { readonly cancellation: true }) | { readonly basketId: string } | { readonly consentId: string };
