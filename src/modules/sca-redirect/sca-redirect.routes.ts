import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { localized, type Localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';
import { pickLanguage } from '../../http/content-negotiation.js';
import { pageStatusOf } from '../../http/error-handler.js';
import type { Authorisation } from '../authorisations/authorisation.model.js';
import {
  failureReasonOf,
  PAGE_REFUSALS,
  type AuthorisationService,
  type BrowserAccess,
  type FormAccess,
  type PageOutcome,
} from '../authorisations/authorisation.service.js';
import { sendPage, sendRedirect } from './sca-page-headers.js';
import { codePage, confirmPage, externalLoginPage, identifyPage, messagePage, outcomePage, type PageFrame } from './sca-pages.js';
import { sessionOfCookieHeader, sessionSetCookie } from './sca-session-cookie.js';
import { SCA_TEXTS } from './sca-texts.js';

export interface ScaRedirectOptions {
  readonly authorisations: AuthorisationService;
  readonly bankName: string;
  readonly sandbox: boolean;
  /** How long a PSU login's code may wait for `POST /v1/token`; the page that shows the code says so. */
  readonly loginCodeSeconds: number;
  /** The path the pages are served under, as the PSU's browser sees it (XS2A_PUBLIC_URL's path + /sca). */
  readonly basePath: string;
  /** Session cookies are `Secure` (XS2A_PUBLIC_URL is https); they are over an https connection too. */
  readonly secureCookie: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A phone or tablet, where the bank's app (and its biometrics) can be offered. */
const MOBILE_USER_AGENT = /Mobi|Android|iPhone|iPad|iPod/i;
const FORM_LIMIT_BYTES = 4096;

/** A posted form: the first value of a field, and every value of a repeated one (ticked checkboxes). */
interface Form {
  get(name: string): string | undefined;
  all(name: string): string[];
}

const EMPTY_FORM: Form = { get: () => undefined, all: () => [] };

/** How many ticked choices a post may carry (a PSU's accounts; more is no PSU's form). */
const MAX_CHOICES = 200;

type PageSettings = Pick<ScaRedirectOptions, 'bankName' | 'sandbox'>;

/** What every page shows around its content: in the browser's language, the bank, and what is being authorised. */
function pageFrame(options: PageSettings, request: FastifyRequest, authorisation?: Authorisation): PageFrame {
  return {
    language: pickLanguage(request.headers['accept-language']),
    bankName: options.bankName,
    sandbox: options.sandbox,
    purpose: authorisation?.purpose,
  };
}

/**
 * The page of an error that is no step's refusal, by its HTTP status: a path that names no
 * authorisation (404), a request that could not be read (another 4xx), or a failure of ours.
 */
function errorPage(options: PageSettings, request: FastifyRequest, reply: FastifyReply, status: number): FastifyReply {
  const message =
    status === 404
      ? PAGE_REFUSALS.unknown
      : status === 503
        ? SCA_TEXTS.unavailable
        : status < 500
          ? localized('The request could not be understood. Open the link again.', 'Forespørselen kunne ikke forstås. Åpne lenken på nytt.')
          : SCA_TEXTS.failed;
  return sendPage(reply, status, messagePage(pageFrame(options, request), SCA_TEXTS.errorHeading, message));
}

/**
 * The pages' answer to a request the router refuses under their path before their scope sees it
 * (an id longer than any the server makes, a malformed percent-encoding; app-module.ts
 * `routerRefusals`): the page of the status the API gives it, as any other error here.
 */
export function scaRouterRefusal(options: PageSettings): (status: number, request: FastifyRequest, reply: FastifyReply) => FastifyReply {
  return (status, request, reply) => errorPage(options, request, reply, status);
}

/**
 * The PSU's pages of SCA by redirect, served by this server to the PSU's browser:
 * identify → one-time code → confirmation → approve or reject → back to the TPP. The first browser
 * that opens the link gets a session cookie for the authorisation's pages; every later page and
 * post needs it, and any other browser gets a 409 page saying the authorisation is in progress
 * elsewhere. Every form post carries that browser's CSRF token and answers 303
 * (post/redirect/get), so reloading a page never posts twice.
 */
export const scaRedirectRoutes: FastifyPluginAsync<ScaRedirectOptions> = async (app, options) => {
  const { authorisations, basePath } = options;

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES },
    (_request, body, done) => {
      done(null, new URLSearchParams(body as string));
    },
  );

  const frameOf = (request: FastifyRequest, authorisation?: Authorisation) => pageFrame(options, request, authorisation);

  const pagePath = (authorisation: Pick<Authorisation, 'id'>) => `${basePath}/${authorisation.id}`;
  // Where a form post may lead: the TPP's redirect URIs, and the bank's login after the identify step.
  const targets = (authorisation: Authorisation) => [authorisation.redirectUri, authorisation.nokRedirectUri, authorisations.loginOrigin];

  function refuse(request: FastifyRequest, reply: FastifyReply, status: number, message: Localized): FastifyReply {
    return sendPage(reply, status, messagePage(frameOf(request), SCA_TEXTS.errorHeading, message));
  }

  /** Another browser has the authorisation's pages (or this one lost its cookie): 409, and nothing changed. */
  function elsewhere(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    return sendPage(reply, 409, messagePage(frameOf(request), SCA_TEXTS.elsewhereHeading, SCA_TEXTS.elsewhere));
  }

  const accessOf = (request: FastifyRequest, form: Form = EMPTY_FORM): FormAccess => ({
    session: sessionOfCookieHeader(request.headers.cookie),
    csrf: form.get('csrf') ?? '',
  });

  /** The page of the authorisation's current step; `message` explains why the same step is shown again. */
  async function stepPage(
    request: FastifyRequest,
    reply: FastifyReply,
    authorisation: Authorisation,
    access: FormAccess,
    status = 200,
    message?: Localized,
    typed?: string,
  ) {
    const frame = frameOf(request, authorisation);
    const csrf = access.csrf;
    switch (authorisation.scaStatus) {
      case 'received':
        return sendPage(
          reply,
          status,
          identifyPage(frame, {
            action: `${pagePath(authorisation)}/identify`,
            csrf,
            tppName: authorisation.tppName,
            lockedPsuId: authorisation.expectedPsuId,
            typed,
            message,
            offerApp: authorisation.biometric && MOBILE_USER_AGENT.test(request.headers['user-agent'] ?? ''),
          }),
          targets(authorisation),
        );
      case 'psuIdentified':
        if (authorisations.loginStep === 'external-redirect') return externalLogin(request, reply, authorisation, access, status, message);
        return sendPage(
          reply,
          status,
          codePage(frame, {
            action: `${pagePath(authorisation)}/code`,
            csrf,
            // While the PSU's code step is locked, the page says until when.
            message: message ?? (await authorisations.codeLockNotice(authorisation)),
          }),
          targets(authorisation),
        );
      case 'psuAuthenticated':
      case 'scaMethodSelected':
        return sendPage(
          reply,
          status,
          confirmPage(frame, {
            action: `${pagePath(authorisation)}/decision`,
            csrf,
            tppName: authorisation.tppName,
            confirmation: await authorisations.confirmation(authorisation),
            cancelling: authorisation.purpose === 'payment-cancellation',
          }),
          targets(authorisation),
        );
      case 'started':
        return sendPage(reply, status, messagePage(frame, SCA_TEXTS.approvedHeading, SCA_TEXTS.inProgress));
      case 'finalised':
      case 'failed':
      case 'exempted':
        return outcome(request, reply, authorisation);
    }
  }

  /**
   * The identified PSU logs in at the bank's IdP: the browser goes there at once; after a refused
   * login (or while the PSU's lock holds) a page says why, with a link to try again.
   */
  async function externalLogin(
    request: FastifyRequest,
    reply: FastifyReply,
    authorisation: Authorisation,
    access: BrowserAccess,
    status: number,
    message: Localized | undefined,
  ) {
    const notice = message ?? (await authorisations.codeLockNotice(authorisation));
    const startUrl = await authorisations.externalLoginUrl(authorisation, access);
    if (notice === undefined) return sendRedirect(reply, startUrl);
    return sendPage(reply, status, externalLoginPage(frameOf(request, authorisation), { href: startUrl, message: notice }));
  }

  /** The page of a finished authorisation: what happened, and the way back to the TPP. */
  async function outcome(request: FastifyRequest, reply: FastifyReply, authorisation: Authorisation, loginCode?: string) {
    const success = authorisation.scaStatus !== 'failed';
    const message = success
      ? authorisation.purpose === 'psu-login'
        ? SCA_TEXTS.loggedIn
        : await authorisations.approvedMessage(authorisation)
      : (failureReasonOf(authorisation) ?? SCA_TEXTS.failedHeading);
    const continueHref = success ? authorisation.redirectUri : (authorisation.nokRedirectUri ?? authorisation.redirectUri);
    return sendPage(
      reply,
      200,
      outcomePage(frameOf(request, authorisation), {
        success,
        message,
        tppName: authorisation.tppName,
        // A login's redirect needs its code, which only the post that finished it knows.
        continueHref: authorisation.purpose === 'psu-login' && success ? undefined : continueHref,
        ...(loginCode === undefined ? {} : { loginCode: { code: loginCode, lifetimeSeconds: options.loginCodeSeconds } }),
      }),
    );
  }

  /** Answers a form post's outcome: the next step, the same step again, or back to the TPP. */
  async function answer(request: FastifyRequest, reply: FastifyReply, result: PageOutcome, access: FormAccess, typed?: string) {
    switch (result.kind) {
      case 'refused':
        return refuse(request, reply, result.status, result.message);
      case 'elsewhere':
        return elsewhere(request, reply);
      case 'next':
        return sendRedirect(reply, pagePath(result.authorisation));
      case 'retry':
        // Only a post with this browser's session and CSRF token gets this far: its token stays.
        return stepPage(request, reply, result.authorisation, access, result.status ?? 400, result.message, typed);
      case 'finished': {
        const authorisation = result.authorisation;
        if (authorisation.scaStatus === 'finalised' && authorisation.redirectUri) {
          if (result.loginCode === undefined) return sendRedirect(reply, authorisation.redirectUri);
          const target = new URL(authorisation.redirectUri);
          target.searchParams.set('code', result.loginCode);
          return sendRedirect(reply, target.toString());
        }
        const nok = authorisation.nokRedirectUri ?? authorisation.redirectUri;
        if (authorisation.scaStatus === 'failed' && result.rejectedByPsu && nok) return sendRedirect(reply, nok);
        // A failure the PSU did not choose is explained on the page, with the way back.
        return outcome(request, reply, authorisation, result.loginCode);
      }
    }
  }

  const formOf = (request: FastifyRequest): Form => {
    const params = request.body instanceof URLSearchParams ? request.body : undefined;
    if (!params) return EMPTY_FORM;
    return { get: (name) => params.get(name) ?? undefined, all: (name) => params.getAll(name) };
  };
  const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

  app.get('/:id', { schema: { hide: true } }, async (request, reply) => {
    const id = idOf(request);
    if (!UUID.test(id)) return refuse(request, reply, 404, PAGE_REFUSALS.unknown);
    const visit = await authorisations.visit(id, accessOf(request));
    if (visit.kind === 'unknown') return refuse(request, reply, 404, PAGE_REFUSALS.unknown);
    if (visit.kind === 'elsewhere') return elsewhere(request, reply);
    if (visit.newSession !== undefined) {
      const secure = options.secureCookie || request.protocol === 'https';
      reply.header('set-cookie', sessionSetCookie(visit.newSession, pagePath(visit.authorisation), secure));
    }
    return stepPage(request, reply, visit.authorisation, { session: visit.newSession ?? accessOf(request).session, csrf: visit.csrf });
  });

  // The browser back from the bank's IdP (external login): no form and no CSRF token; the state in
  // the signed assertion binds it to this browser, and only this browser's cookie is accepted.
  app.get('/:id/return', { schema: { hide: true } }, async (request, reply) => {
    const id = idOf(request);
    if (!UUID.test(id)) return refuse(request, reply, 404, PAGE_REFUSALS.unknown);
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) {
      if (typeof value === 'string' && value.length <= FORM_LIMIT_BYTES) params[name] = value;
    }
    const access = { session: sessionOfCookieHeader(request.headers.cookie), csrf: '' };
    const result = await authorisations.externalReturn(id, access, params);
    // A retry's page needs this browser's CSRF token for nothing (it has a link, no form).
    return answer(request, reply, result, access);
  });

  app.post('/:id/identify', { schema: { hide: true } }, async (request, reply) => {
    const id = idOf(request);
    if (!UUID.test(id)) return refuse(request, reply, 404, PAGE_REFUSALS.unknown);
    const form = formOf(request);
    // The app is offered on a phone only; a post asking for it from elsewhere gets the code step.
    const method = form.get('method') === 'app' && MOBILE_USER_AGENT.test(request.headers['user-agent'] ?? '') ? 'app' : 'code';
    const typed = (form.get('psuId') ?? '').slice(0, 40);
    const access = accessOf(request, form);
    return answer(request, reply, await authorisations.identify(id, access, typed, method), access, typed);
  });

  app.post('/:id/code', { schema: { hide: true } }, async (request, reply) => {
    const id = idOf(request);
    if (!UUID.test(id)) return refuse(request, reply, 404, PAGE_REFUSALS.unknown);
    const form = formOf(request);
    const access = accessOf(request, form);
    return answer(request, reply, await authorisations.enterCode(id, access, (form.get('code') ?? '').slice(0, 40)), access);
  });

  app.post('/:id/decision', { schema: { hide: true } }, async (request, reply) => {
    const id = idOf(request);
    if (!UUID.test(id)) return refuse(request, reply, 404, PAGE_REFUSALS.unknown);
    const form = formOf(request);
    const decision = form.get('decision');
    if (decision !== 'approve' && decision !== 'reject') {
      return refuse(request, reply, 400, localized('Choose approve or reject.', 'Velg godkjenn eller avvis.'));
    }
    const access = accessOf(request, form);
    const chosen = form
      .all('choice')
      .slice(0, MAX_CHOICES)
      .map((value) => value.slice(0, 100));
    return answer(request, reply, await authorisations.decide(id, access, decision, chosen), access);
  });

  // Anything else under the pages' path, and any error, is a page too: a PSU's browser gets no JSON.
  app.setNotFoundHandler(async (request, reply) => errorPage(options, request, reply, 404));
  app.setErrorHandler(async (error: unknown, request, reply) => {
    // A concurrent change (another tab finished the step first) is not a failure of ours. Any
    // other refusal (the front door's, before the route ran) is the page of its status.
    const status = pageStatusOf(error);
    if (error instanceof AppError && status === 409) return refuse(request, reply, 409, PAGE_REFUSALS.step);
    if (status === 500) request.log.error({ err: error }, 'unexpected error on an SCA page');
    return errorPage(options, request, reply, status);
  });
};
