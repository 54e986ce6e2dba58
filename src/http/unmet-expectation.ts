import type { Server } from 'node:http';
import { AppError } from '../errors/app-error.js';

/*
 * RFC 9110 §10.1.1: an `Expect` the server cannot meet is answered 417. Node meets `100-continue`
 * itself (it sends `100 Continue`, then the request goes on as usual). Any other expectation in an
 * HTTP/1.1 request it would answer itself, with an empty 417, before any route or hook runs.
 */

/**
 * Passes requests with an expectation Node does not meet on to the app, as any other request: the
 * front door refuses them ({@link refuseUnmetExpectation}), so the 417 carries the error body and
 * every header an answer has, is logged, and the body left unread is Node's to skip.
 */
export function passUnmetExpectationsOn(server: Server): void {
  server.on('checkExpectation', (request, response) => server.emit('request', request, response));
}

/** Node's own test for `100-continue` in an `Expect` header. */
const CONTINUE = /(?:^|\W)100-continue(?:$|\W)/i;

/** Refuses an `Expect` header that asks for anything but `100-continue` (also in HTTP/1.0, where Node passes it on). */
export function refuseUnmetExpectation(expect: string | undefined): void {
  if (expect !== undefined && !CONTINUE.test(expect)) throw new AppError('EXPECTATION_UNSUPPORTED', { path: 'Expect' });
}
