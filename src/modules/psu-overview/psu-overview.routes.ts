import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { localized, type Localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';
import { pageStatusOf } from '../../http/error-handler.js';
import { pickLanguage } from '../../http/content-negotiation.js';
import { sendPage, sendRedirect } from '../sca-redirect/sca-page-headers.js';
import type { PageFrame } from '../sca-redirect/sca-pages.js';
import { SCA_TEXTS } from '../sca-redirect/sca-texts.js';
import { sessionOfCookieHeader, sessionSetCookie } from '../sca-redirect/sca-session-cookie.js';
import {
  overviewCodePage,
  overviewExternalLoginPage,
  overviewLinkNeededPage,
  overviewLoginPage,
  overviewMessagePage,
  overviewPage,
} from './psu-overview-pages.js';
import type { LoginOutcome, PsuOverviewService, Visit } from './psu-overview.service.js';
import { OVERVIEW_TEXTS } from './psu-overview-texts.js';

/** The page's session cookie: its own name and path, never sent to the SCA pages nor they to it. */
export const OVERVIEW_SESSION_COOKIE = 'xs2a_psu_session';

export interface PsuOverviewRouteOptions {
  readonly overview: PsuOverviewService;
  readonly bankName: string;
  readonly sandbox: boolean;
  /** The path the page is served under, as the PSU's browser sees it (XS2A_PUBLIC_URL's path + /psu/consents). */
  readonly basePath: string;
  /** The cookie is `Secure` (XS2A_PUBLIC_URL is https); it is over an https connection too. */
  readonly secureCookie: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FORM_LIMIT_BYTES = 4096;
/** What the page says after a post, by the `done` of the 303 that follows it. */
const NOTICES: Readonly<Record<string, Localized>> = { revoked: OVERVIEW_TEXTS.revoked };

/**
 * The PSU's own page of consents and payments (docs/design.md §2b), at `/psu/consents`: unsigned
 * (a browser), HTML, outside the API's front door. GET shows the visit's step (login, code, or the
 * list); every form post carries the visit's CSRF token and answers 303 (post/redirect/get). A post
 * without the visit's cookie and token changes nothing (403). In the sandbox a visit starts only
 * from a TPP's link (`?access=`, from `POST /v1/sandbox/psu-page-links`), on that TPP's bank.
 */
export const psuOverviewRoutes: FastifyPluginAsync<PsuOverviewRouteOptions> = async (app, options) => {
  const { overview, basePath } = options;

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES },
    (_request, body, done) => {
      done(null, new URLSearchParams(body as string));
    },
  );

  const frameOf = (request: FastifyRequest): PageFrame => ({
    language: pickLanguage(request.headers['accept-language']),
    bankName: options.bankName,
    sandbox: options.sandbox,
    purpose: undefined,
    title: OVERVIEW_TEXTS.title,
  });
  // The login form leads to the bank's IdP (external login) by its 303.
  const targets = [overview.loginOrigin === undefined ? undefined : `${overview.loginOrigin}/`];
  const secretOf = (request: FastifyRequest) => sessionOfCookieHeader(request.headers.cookie, OVERVIEW_SESSION_COOKIE);
  const formOf = (request: FastifyRequest) => (request.body instanceof URLSearchParams ? request.body : new URLSearchParams());
  const field = (form: URLSearchParams, name: string, limit = 100) => (form.get(name) ?? '').slice(0, limit);

  function setCookie(request: FastifyRequest, reply: FastifyReply, secret: string): void {
    const secure = options.secureCookie || request.protocol === 'https';
    reply.header('set-cookie', sessionSetCookie(secret, basePath, secure, OVERVIEW_SESSION_COOKIE));
  }

  function message(request: FastifyRequest, reply: FastifyReply, status: number, text: Localized): FastifyReply {
    return sendPage(reply, status, overviewMessagePage(frameOf(request), { message: text, href: basePath }));
  }

  /** The page of the visit's step; `notice` and `retry` say what the last post did. */
  async function stepPage(
    request: FastifyRequest,
    reply: FastifyReply,
    visit: Visit,
    retry?: { readonly status: number; readonly message: Localized },
    notice?: Localized,
  ): Promise<FastifyReply> {
    const frame = frameOf(request);
    const csrf = visit.session.csrfToken;
    const status = retry?.status ?? 200;
    switch (overview.stepOf(visit)) {
      case 'identify':
        return sendPage(reply, status, overviewLoginPage(frame, { action: `${basePath}/login`, csrf, message: retry?.message }), targets);
      case 'second-factor':
        if (overview.loginStep === 'external-redirect') {
          const href = await overview.externalLoginUrl(visit);
          if (retry === undefined) return sendRedirect(reply, href);
          return sendPage(reply, status, overviewExternalLoginPage(frame, { href, message: retry.message }));
        }
        return sendPage(
          reply,
          status,
          overviewCodePage(frame, { action: `${basePath}/code`, csrf, restartAction: `${basePath}/logout`, message: retry?.message }),
          targets,
        );
      case 'logged-in':
        return sendPage(
          reply,
          status,
          overviewPage(frame, {
            overview: await overview.overview(visit),
            csrf,
            revokeAction: `${basePath}/revoke`,
            logoutAction: `${basePath}/logout`,
            notice,
            message: retry?.message,
          }),
        );
    }
  }

  async function answer(request: FastifyRequest, reply: FastifyReply, visit: Visit, outcome: LoginOutcome): Promise<FastifyReply> {
    switch (outcome.kind) {
      case 'next':
        if (outcome.newSecret !== undefined) setCookie(request, reply, outcome.newSecret);
        return sendRedirect(reply, basePath);
      case 'external':
        return sendRedirect(reply, outcome.url);
      case 'retry':
        // As it is now: the attempt just counted is part of the next external login's state.
        return stepPage(request, reply, (await overview.find(visit.secret)) ?? visit, outcome);
      case 'ended':
        if (outcome.newSecret !== undefined) setCookie(request, reply, outcome.newSecret);
        return message(request, reply, 400, outcome.message);
    }
  }

  /**
   * The visit a form post belongs to; undefined: no live visit in this browser, or another page's
   * token, answered with {@link visitEnded}. (Not the reply itself from here: a Fastify reply is a
   * thenable, and an async function returning it resolves to undefined once it is sent.)
   */
  function formVisit(request: FastifyRequest): Promise<Visit | undefined> {
    return overview.formVisit(secretOf(request), field(formOf(request), 'csrf'));
  }
  const visitEnded = (request: FastifyRequest, reply: FastifyReply) => message(request, reply, 403, OVERVIEW_TEXTS.ended);

  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const access = query['access'];
    if (options.sandbox && access !== undefined) {
      const opened = await overview.openLink(secretOf(request), typeof access === 'string' ? access.slice(0, 100) : '');
      if (opened === undefined) {
        return sendPage(reply, 403, overviewLinkNeededPage(frameOf(request), { message: OVERVIEW_TEXTS.linkRefused }));
      }
      if (opened.newSecret !== undefined) setCookie(request, reply, opened.newSecret);
      // The token leaves the address bar (the history, a Referer): from here the visit is the cookie.
      return sendRedirect(reply, basePath);
    }
    const visit = await overview.enter(secretOf(request));
    if (visit === undefined) return sendPage(reply, 200, overviewLinkNeededPage(frameOf(request)));
    if (visit.newSecret !== undefined) setCookie(request, reply, visit.newSecret);
    const done = query['done'];
    return stepPage(request, reply, visit, undefined, typeof done === 'string' ? NOTICES[done] : undefined);
  });

  app.post('/login', { schema: { hide: true } }, async (request, reply) => {
    const visit = await formVisit(request);
    if (!visit) return visitEnded(request, reply);
    return answer(request, reply, visit, await overview.identify(visit, field(formOf(request), 'psuId', 40)));
  });

  app.post('/code', { schema: { hide: true } }, async (request, reply) => {
    const visit = await formVisit(request);
    if (!visit) return visitEnded(request, reply);
    return answer(request, reply, visit, await overview.enterCode(visit, field(formOf(request), 'code', 40)));
  });

  // The browser back from the bank's IdP: no form; the state in the signed assertion binds it to
  // this browser's visit, and only this browser's cookie finds the visit.
  app.get('/return', { schema: { hide: true } }, async (request, reply) => {
    const visit = await overview.find(secretOf(request));
    if (visit === undefined) return visitEnded(request, reply);
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) {
      if (typeof value === 'string' && value.length <= FORM_LIMIT_BYTES) params[name] = value;
    }
    return answer(request, reply, visit, await overview.externalReturn(visit, params));
  });

  app.post('/revoke', { schema: { hide: true } }, async (request, reply) => {
    const visit = await formVisit(request);
    if (!visit) return visitEnded(request, reply);
    if (overview.stepOf(visit) !== 'logged-in') return visitEnded(request, reply);
    const consentId = field(formOf(request), 'consentId');
    if (!UUID.test(consentId)) return stepPage(request, reply, visit, { status: 404, message: OVERVIEW_TEXTS.unknownConsent });
    switch (await overview.revoke(visit, consentId)) {
      case 'revoked':
        return sendRedirect(reply, `${basePath}?done=revoked`);
      case 'unknown':
        return stepPage(request, reply, visit, { status: 404, message: OVERVIEW_TEXTS.unknownConsent });
      case 'not-valid':
        return stepPage(request, reply, visit, { status: 409, message: OVERVIEW_TEXTS.notValid });
    }
  });

  app.post('/logout', { schema: { hide: true } }, async (request, reply) => {
    const visit = await formVisit(request);
    if (!visit) return visitEnded(request, reply);
    const { newSecret } = await overview.logout(visit);
    if (newSecret !== undefined) setCookie(request, reply, newSecret);
    return sendRedirect(reply, basePath);
  });

  // Anything else under the page's path, and any error, is a page too: a PSU's browser gets no JSON.
  app.setNotFoundHandler(async (request, reply) =>
    message(request, reply, 404, localized('There is no such page.', 'Denne siden finnes ikke.')),
  );
  app.setErrorHandler(async (error: unknown, request, reply) => {
    // A concurrent change (another tab revoked the consent first) is not a failure of ours. Any
    // other refusal (the front door's, before the route ran) is the page of its status.
    const status = pageStatusOf(error);
    if (error instanceof AppError && status === 409) return message(request, reply, 409, OVERVIEW_TEXTS.notValid);
    if (status === 500) request.log.error({ err: error }, 'unexpected error on the PSU overview page');
    const text =
      status === 503
        ? SCA_TEXTS.unavailable
        : status === 500
          ? SCA_TEXTS.failed
          : localized('The request could not be understood.', 'Forespørselen kunne ikke forstås.');
    return message(request, reply, status, text);
  });
};
