import { request as httpRequest } from 'undici';
import { walkScaRedirect, type PsuActions, type PsuJourney } from './sca-redirect-driver.js';
import { signRequest, type SigningCredentials } from './request-signer.js';
import type {
  AuthorisationList,
  AuthorisationStarted,
  AuthorisationTarget,
  AccountAnswer,
  AccountBalances,
  AccountList,
  CardAccountAnswer,
  CardAccountBalances,
  CardAccountList,
  ConsentBody,
  ConsentCreated,
  ConsentInformation,
  ConsentStatusAnswer,
  FundsConfirmation,
  FundsConfirmationBody,
  ContactInformation,
  InstantFeeInformation,
  InstantFeeInformationBody,
  ContactInformationAnswer,
  PaymentBodies,
  PaymentCancellation,
  PaymentCreated,
  PaymentRef,
  PaymentService,
  PaymentProduct,
  PaymentStatus,
  PaymentWithStatus,
  PsuAccessToken,
  ScaStatusAnswer,
  SigningBasket,
  SigningBasketCreated,
  SigningBasketStatus,
} from './wire-types.js';
import type { CallOptions, TppResponse } from './tpp-call.js';

export type { CallOptions, TppResponse } from './tpp-call.js';
import { transactionPages, type ReportedTransaction, type ReportPage, type TransactionPagesOptions } from './transaction-pages.js';

/** Options of a payment initiation: the call's, and the logical-duplicate override. */
export interface InitiationOptions extends CallOptions {
  /** `?allowLogicalDuplicate=true`: create it even if an equal payment is still live. */
  readonly allowLogicalDuplicate?: boolean;
}

/**
 * A small TPP SDK: signs each request with the TPP's QSealC and sends it. Used by the CLI, the
 * tests and the benchmark, so all three speak to the server exactly as a TPP would. `call` and
 * its verbs take a path (`/v1/…`) or an `href` from `_links` as the server hands it out; the
 * named methods cover every operation of the API with typed bodies and answers.
 */
export class TppClient {
  constructor(
    readonly baseUrl: string,
    private readonly credentials: SigningCredentials | undefined,
  ) {}

  async call<T = unknown>(method: string, pathOrHref: string, options: CallOptions = {}): Promise<TppResponse<T>> {
    const { url, path } = this.target(pathOrHref);
    const body = toBody(options.body);
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(body.length > 0 ? { 'content-type': 'application/json' } : {}),
      ...lowerCase(options.headers ?? {}),
    };
    const finalHeaders =
      options.unsigned || !this.credentials
        ? { 'x-request-id': crypto.randomUUID(), ...headers }
        : signRequest({ method, path, headers, body }, this.credentials, options);
    const response = await httpRequest(url, {
      method: method.toUpperCase() as 'GET',
      headers: finalHeaders,
      ...(body.length > 0 ? { body } : {}),
    });
    const text = await response.body.text();
    const contentType = String(response.headers['content-type'] ?? '');
    return {
      status: response.statusCode,
      headers: response.headers,
      body: (contentType.includes('json') && text ? JSON.parse(text) : text) as T,
      text,
    };
  }

  get<T = unknown>(path: string, options?: CallOptions) {
    return this.call<T>('GET', path, options);
  }
  post<T = unknown>(path: string, body: unknown, options?: CallOptions) {
    return this.call<T>('POST', path, { ...options, body });
  }
  put<T = unknown>(path: string, body: unknown, options?: CallOptions) {
    return this.call<T>('PUT', path, { ...options, body });
  }
  delete<T = unknown>(path: string, options?: CallOptions) {
    return this.call<T>('DELETE', path, options);
  }

  // TPP dialogue

  putContactInformation(tppId: string, contact: ContactInformation, options?: CallOptions) {
    return this.put<ContactInformationAnswer>(`/v1/tpps/${encodeURIComponent(tppId)}/contact-information`, contact, options);
  }
  getContactInformation(tppId: string, options?: CallOptions) {
    return this.get<ContactInformationAnswer>(`/v1/tpps/${encodeURIComponent(tppId)}/contact-information`, options);
  }

  // Payments

  initiatePayment<S extends PaymentService>(service: S, product: PaymentProduct, body: PaymentBodies[S], options: InitiationOptions = {}) {
    const { allowLogicalDuplicate, ...call } = options;
    const query = allowLogicalDuplicate === undefined ? '' : `?allowLogicalDuplicate=${allowLogicalDuplicate}`;
    return this.post<PaymentCreated>(`/v1/${service}/${product}${query}`, body, call);
  }
  /**
   * `POST /v1/payments/instant-norwegian-domestic-credit-transfers-straks/fee-information`: the fee
   * the bank charges for this Straks payment (send PSU-ID as for the payment, to have the PSU's
   * right to pay from the account checked too).
   */
  getInstantPaymentFee(body: InstantFeeInformationBody, options?: CallOptions) {
    return this.post<InstantFeeInformation>(
      '/v1/payments/instant-norwegian-domestic-credit-transfers-straks/fee-information',
      body,
      options,
    );
  }
  getPayment(payment: PaymentRef, options?: CallOptions) {
    return this.get<PaymentWithStatus>(paymentPath(payment), options);
  }
  getPaymentStatus(payment: PaymentRef, options?: CallOptions) {
    return this.get<PaymentStatus>(`${paymentPath(payment)}/status`, options);
  }
  /** 204 (cancelled at once) or 202 with `startAuthorisation` (the PSU must approve the cancellation). */
  cancelPayment(payment: PaymentRef, options?: CallOptions) {
    return this.delete<PaymentCancellation>(paymentPath(payment), options);
  }

  // Authorisations of a payment, of its cancellation, or of a signing basket

  startAuthorisation(target: AuthorisationTarget, options?: CallOptions) {
    return this.post<AuthorisationStarted>(authorisationsPath(target), undefined, options);
  }
  getAuthorisations(target: AuthorisationTarget, options?: CallOptions) {
    return this.get<AuthorisationList>(authorisationsPath(target), options);
  }
  getAuthorisationStatus(target: AuthorisationTarget, authorisationId: string, options?: CallOptions) {
    return this.get<ScaStatusAnswer>(`${authorisationsPath(target)}/${encodeURIComponent(authorisationId)}`, options);
  }

  // Signing baskets

  createSigningBasket(paymentIds: readonly string[], options?: CallOptions) {
    return this.post<SigningBasketCreated>('/v1/signing-baskets', { paymentIds }, options);
  }
  getSigningBasket(basketId: string, options?: CallOptions) {
    return this.get<SigningBasket>(basketPath(basketId), options);
  }
  getSigningBasketStatus(basketId: string, options?: CallOptions) {
    return this.get<SigningBasketStatus>(`${basketPath(basketId)}/status`, options);
  }
  /** 204 before any approval: the basket reads CANC and its payments are free again. */
  deleteSigningBasket(basketId: string, options?: CallOptions) {
    return this.delete<''>(basketPath(basketId), options);
  }

  // Account information: consents (their authorisations are startAuthorisation & co. with { consentId })

  createConsent(body: ConsentBody, options?: CallOptions) {
    return this.post<ConsentCreated>('/v1/consents', body, options);
  }
  getConsent(consentId: string, options?: CallOptions) {
    return this.get<ConsentInformation>(consentPath(consentId), options);
  }
  getConsentStatus(consentId: string, options?: CallOptions) {
    return this.get<ConsentStatusAnswer>(`${consentPath(consentId)}/status`, options);
  }
  /** 204: the consent is terminatedByTpp and reads under it are refused. */
  deleteConsent(consentId: string, options?: CallOptions) {
    return this.delete<''>(consentPath(consentId), options);
  }

  // Account information: reads under a consent (sent as the Consent-ID header)

  getAccounts(consentId: string, options: ReadOptions = {}) {
    return this.get<AccountList>(`/v1/accounts${withBalance(options)}`, underConsent(consentId, options));
  }
  getAccount(consentId: string, accountId: string, options: ReadOptions = {}) {
    return this.get<AccountAnswer>(
      `/v1/accounts/${encodeURIComponent(accountId)}${withBalance(options)}`,
      underConsent(consentId, options),
    );
  }
  getBalances(consentId: string, accountId: string, options: CallOptions = {}) {
    return this.get<AccountBalances>(`/v1/accounts/${encodeURIComponent(accountId)}/balances`, underConsent(consentId, options));
  }
  getCardAccounts(consentId: string, options: ReadOptions = {}) {
    return this.get<CardAccountList>(`/v1/card-accounts${withBalance(options)}`, underConsent(consentId, options));
  }
  getCardAccount(consentId: string, accountId: string, options: ReadOptions = {}) {
    return this.get<CardAccountAnswer>(
      `/v1/card-accounts/${encodeURIComponent(accountId)}${withBalance(options)}`,
      underConsent(consentId, options),
    );
  }
  getCardAccountBalances(consentId: string, accountId: string, options: CallOptions = {}) {
    return this.get<CardAccountBalances>(`/v1/card-accounts/${encodeURIComponent(accountId)}/balances`, underConsent(consentId, options));
  }
  /** `POST /v1/funds-confirmations` (PSP_IC): whether the amount can be debited now. */
  confirmFunds(body: FundsConfirmationBody, options?: CallOptions) {
    return this.post<FundsConfirmation>('/v1/funds-confirmations', body, options);
  }

  // The PSU pre-step

  /** `POST /v1/token`: the login code the PSU pre-step handed out, for a PSU access token (send it as `Authorization: Bearer …`). */
  exchangeLoginCode(code: string, options?: CallOptions) {
    return this.post<PsuAccessToken>('/v1/token', { code }, options);
  }

  /**
   * Account information: every transaction of an account (`/v1/accounts/{id}`) or card account
   * (`/v1/card-accounts/{id}`) under a consent, across all pages, for `for await`. Throws
   * TransactionPageError (./transaction-pages.ts) when a page is not 200.
   */
  transactions(accountPath: string, options: TransactionPagesOptions): AsyncGenerator<ReportedTransaction> {
    return transactionPages((path, callOptions) => this.get<ReportPage>(path, callOptions), accountPath, options);
  }

  /**
   * Plays the PSU on a sandbox's SCA redirect pages (`scaRedirect`) with plain form posts, for
   * TPPs' own CI: identify, one-time code, approve or reject. Answers where the PSU ended up.
   */
  actAsPsu(scaRedirect: string, actions?: PsuActions): Promise<PsuJourney> {
    return walkScaRedirect(scaRedirect, actions);
  }

  /**
   * Where a request goes and the path it signs as `(request-target)`: a path is taken against the
   * base URL; an absolute href (from `_links`) is sent where it points, signed with its own path.
   */
  private target(pathOrHref: string): { url: URL; path: string } {
    const url = new URL(pathOrHref, this.baseUrl);
    // A path is signed exactly as the caller wrote it (tests send odd ones on purpose).
    return { url, path: pathOrHref.startsWith('/') ? pathOrHref : `${url.pathname}${url.search}` };
  }
}

function paymentPath({ service, product, paymentId }: PaymentRef): string {
  return `/v1/${service}/${product}/${encodeURIComponent(paymentId)}`;
}

function consentPath(consentId: string): string {
  return `/v1/consents/${encodeURIComponent(consentId)}`;
}

/** A read's options: `withBalance` adds the balances the consent grants. */
export interface ReadOptions extends CallOptions {
  readonly withBalance?: boolean;
}

function withBalance(options: ReadOptions): string {
  return options.withBalance === undefined ? '' : `?withBalance=${options.withBalance}`;
}

/** The call's options with the Consent-ID header the reads need. */
function underConsent(consentId: string, options: ReadOptions): CallOptions {
  const { withBalance: _query, ...call } = options;
  return { ...call, headers: { ...call.headers, 'Consent-ID': consentId } };
}

function basketPath(basketId: string): string {
  return `/v1/signing-baskets/${encodeURIComponent(basketId)}`;
}

function authorisationsPath(target: AuthorisationTarget): string {
  if ('basketId' in target) return `${basketPath(target.basketId)}/authorisations`;
  if ('consentId' in target) return `${consentPath(target.consentId)}/authorisations`;
  return `${paymentPath(target)}/${'cancellation' in target ? 'cancellation-authorisations' : 'authorisations'}`;
}

function toBody(body: unknown): Buffer {
  if (body === undefined) return Buffer.alloc(0);
  if (Buffer.isBuffer(body)) return body;
  return Buffer.from(JSON.stringify(body), 'utf8');
}

function lowerCase(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
